// The tournaments page (docs/api-web.md, "The web client"): the form that organises one, and
// the upcoming, running and finished tournaments, each linked to its own page, read again
// every few seconds while open.
import { api, el, t, tn, showError } from "/assets/common.js";
import { summary } from "/assets/tourtext.js";
import { setupCreate } from "/assets/tourcreate.js";

const $ = (sel) => document.getElementById(sel);
const STATUSES = ["upcoming", "running", "finished"];

async function load() {
  try {
    const lists = await Promise.all(STATUSES.map((s) => api(`/api/v1/tournaments?status=${s}&limit=50`)));
    lists.forEach((res, i) => {
      const ul = $(`t-${STATUSES[i]}`);
      ul.replaceChildren(...res.tournaments.map((v) => el("li", { "data-id": v.id },
        el("a", { href: `/tournaments/${encodeURIComponent(v.id)}`, text: v.spec.name }),
        el("span", { class: "muted", text: ` · ${summary(v)} · ${tn("tour.entries_n", v.entries.length)}` }))));
      if (!res.tournaments.length) ul.append(el("li", { class: "muted", text: t("none_yet") }));
    });
    showError($("error"), null);
  } catch (err) {
    showError($("error"), err);
  } finally {
    $("tournaments").dataset.loaded = "1";
  }
}

document.title = `${t("tour.list_title")} · ${t("site.name")}`;
setupCreate();
load();
setInterval(load, 5000);
