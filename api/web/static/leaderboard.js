// A format's leaderboard (docs/api-web.md, "The web client"): the ranked players of one format,
// a page at a time, each name linked to the player's page. The page's own address carries the
// format, and the cursor and page size of the API's paging, so that a page can be linked to.
import { api, el, matchId, showError, t } from "/assets/common.js";
import { FORMATS, formatName, figure, profileLink } from "/assets/ratings.js";
import { me } from "/assets/player.js";

const $ = (sel) => document.getElementById(sel);
const format = matchId(); // /leaderboard/{format}
const params = new URLSearchParams(location.search);
const cursor = params.get("cursor") || "";
const limit = params.get("limit") || "";

// pageHref is this board's address for a cursor (none: the first page), at the same size.
function pageHref(next) {
  const q = new URLSearchParams();
  if (next) q.set("cursor", next);
  if (limit) q.set("limit", limit);
  const s = q.toString();
  return `/leaderboard/${encodeURIComponent(format)}${s ? `?${s}` : ""}`;
}

function formats() {
  $("formats").replaceChildren(...FORMATS.map(([f, name]) => el("li", {},
    el("a", { href: `/leaderboard/${f}`, "aria-current": f === format ? "page" : undefined, "data-format": f, text: name }))));
}

async function load() {
  formats();
  const known = FORMATS.some(([f]) => f === format);
  const title = known ? t("board.title_of", { format: formatName(format) }) : t("board.title");
  $("board-title").textContent = title;
  document.title = `${title} · ${t("site.name")}`;
  const q = new URLSearchParams();
  if (cursor) q.set("cursor", cursor);
  if (limit) q.set("limit", limit);
  const s = q.toString();
  try {
    const res = await api(`/api/v1/leaderboard/${encodeURIComponent(format)}${s ? `?${s}` : ""}`);
    render(res);
  } catch (err) {
    $("board-status").textContent = t("board.cannot");
    showError($("error"), err);
  } finally {
    $("leaderboard").dataset.loaded = "1";
  }
}

function render(res) {
  const you = me();
  const rows = res.players;
  $("board-caption").textContent = t("board.caption", { format: formatName(format) });
  $("board-rows").replaceChildren(...rows.map((r) => {
    const mine = you && you.id === r.player.id;
    return el("tr", { "data-player": r.player.id, class: mine ? "you" : "" },
      el("td", { class: "num rank", text: String(r.rank) }),
      el("th", { scope: "row" }, profileLink(r.player.id, r.player.name), mine ? el("span", { class: "tag", text: ` ${t("you_tag")}` }) : null),
      el("td", { class: "num rating", title: `μ ${figure(r.mu)}, σ ${figure(r.sigma)}`, text: figure(r.rating) }),
      el("td", { class: "num", text: String(r.matches) }),
      el("td", { class: "num", text: String(r.wins) }));
  }));
  $("board").hidden = rows.length === 0;
  if (rows.length) {
    const first = rows[0].rank, last = rows[rows.length - 1].rank;
    $("board-status").textContent = t(res.next_cursor ? "board.ranks" : "board.ranks_last", { first, last });
  } else {
    $("board-status").textContent = cursor ? t("board.no_more") : t("board.empty");
  }
  $("next-page").hidden = !res.next_cursor;
  if (res.next_cursor) $("next-page").href = pageHref(res.next_cursor);
  $("first-page").hidden = !cursor;
  $("first-page").href = pageHref("");
}

load();
