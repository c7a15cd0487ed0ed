// A format's leaderboard (docs/api-web.md, "The web client"): the ranked players of one format,
// a page at a time, each name linked to the player's page, programs (bots and engines,
// docs/engine.md) marked as such. The page's own address carries the format, whose players
// (everyone, people or programs), and the cursor and page size of the API's paging, so that a
// page can be linked to.
import { api, el, matchId, showError, t } from "/assets/common.js";
import { FORMATS, formatName, figure, profileLink } from "/assets/ratings.js";
import { me } from "/assets/player.js";

const $ = (sel) => document.getElementById(sel);
const format = matchId(); // /leaderboard/{format}
const params = new URLSearchParams(location.search);
const cursor = params.get("cursor") || "";
const limit = params.get("limit") || "";
const WHO = ["", "humans", "programs"]; // everyone, people, programs: the API's ?players=
const who = WHO.includes(params.get("players")) ? params.get("players") : "";

// pageHref is this board's address for a cursor (none: the first page), at the same size,
// of the same players unless others are asked for.
function pageHref(next, players = who) {
  const q = new URLSearchParams();
  if (next) q.set("cursor", next);
  if (limit) q.set("limit", limit);
  if (players) q.set("players", players);
  const s = q.toString();
  return `/leaderboard/${encodeURIComponent(format)}${s ? `?${s}` : ""}`;
}

function formats() {
  $("formats").replaceChildren(...FORMATS.map(([f, name]) => el("li", {},
    el("a", { href: `/leaderboard/${f}${who ? `?players=${who}` : ""}`, "aria-current": f === format ? "page" : undefined, "data-format": f, text: name }))));
  const names = { "": "engine.players_all", humans: "engine.players_humans", programs: "engine.players_programs" };
  let nav = $("players-filter");
  if (!nav) {
    nav = el("nav", { id: "players-filter", class: "players-filter", "aria-label": t("engine.players") });
    $("formats").closest("nav").after(nav);
  }
  nav.replaceChildren(el("span", { class: "muted small", text: `${t("engine.players")}: ` }),
    ...WHO.map((w) => el("a", { href: pageHref("", w), "aria-current": w === who ? "page" : undefined, "data-players": w || "all", text: t(names[w]) })));
}

// programTag marks a program's row: a bot, or a player made as a program.
function programTag() {
  return el("span", { class: "tag program", title: t("program.title"), text: ` ${t("program.tag")}` });
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
  if (who) q.set("players", who);
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
      el("th", { scope: "row" }, profileLink(r.player.id, r.player.name), r.player.program ? programTag() : null, mine ? el("span", { class: "tag", text: ` ${t("you_tag")}` }) : null),
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
