// A player's page (docs/api-web.md, "The web client"): the name, since when, and each format's
// rating (μ, σ, the rating μ − 3σ, rated matches and wins, those against established
// opponents, provisional said in words), with a chart of the rating over the player's rated
// matches and the same figures in a table.
import { api, el, matchId, showError, t, tn, when as whenT } from "/assets/common.js";
import { FORMATS, formatName, figure, PROVISIONAL, ratingChart, historyTable } from "/assets/ratings.js";
import { me } from "/assets/player.js";
import { cardify } from "/assets/cards.js";

const $ = (sel) => document.getElementById(sel);
const id = matchId(); // /player/{id}
const base = `/api/v1/players/${encodeURIComponent(id)}`;
// The chart draws at most this many of a format's latest rated matches (pages of 200).
const MAX_HISTORY = 1000;

// history reads a format's rated matches, oldest first, following the API's pages.
async function history(format) {
  const out = [];
  let cursor = "";
  do {
    const q = new URLSearchParams({ format, limit: "200" });
    if (cursor) q.set("cursor", cursor);
    const res = await api(`${base}/ratings?${q}`);
    out.push(...res.history);
    cursor = res.next_cursor || "";
  } while (cursor && out.length < MAX_HISTORY);
  return { items: out.reverse(), more: Boolean(cursor) };
}

const when = (x) => whenT(x, true);

// figures lists a format's rating as terms and values.
function figures(f, r) {
  const row = (term, value, cls) => [el("dt", { text: term }), el("dd", { class: cls, text: value })];
  return el("dl", { class: "rating-figures", id: `figures-${f}` },
    ...row(t("profile.rating"), figure(r.rating), "rating"),
    ...row(t("profile.mu"), figure(r.mu), "mu"),
    ...row(t("profile.sigma"), figure(r.sigma), "sigma"),
    ...row(t("profile.matches"), String(r.matches), "matches"),
    ...row(t("board.wins"), String(r.wins), "wins"),
    ...row(t("profile.established"), String(r.established_matches ?? 0), "established"));
}

async function section(f, r) {
  const box = el("section", { class: "panel format", id: `format-${f}`, "data-format": f, "aria-labelledby": `title-${f}` },
    el("h2", { id: `title-${f}` }, formatName(f), " ",
      r.provisional ? el("span", { class: "provisional", text: t("profile.provisional") }) : null),
    r.provisional
      ? el("p", { class: "muted small", text: t("profile.provisional_note", { when: PROVISIONAL }) })
      : el("p", { class: "small" }, el("a", { href: `/leaderboard/${f}`, text: t("profile.see_board", { format: f }) })),
    figures(f, r));
  const chartBox = el("figure", { class: "chart" });
  box.append(chartBox);
  try {
    const { items, more } = await history(f);
    chartBox.replaceChildren(ratingChart(f, items),
      el("figcaption", { class: "small muted", text: t(more ? "profile.caption_last" : "profile.caption", { n: items.length }) }),
      el("details", { class: "figures-box" }, el("summary", { text: tn("profile.in_figures", items.length) }),
        el("div", { class: "scroll" }, cardify(historyTable(f, items)))));
  } catch (err) {
    chartBox.replaceChildren(el("p", { class: "bad", text: err.message }));
  }
  return box;
}

async function load() {
  try {
    // A server that keeps no ratings answers their route as an unknown path (NOT_FOUND),
    // where an unknown player is PLAYER_NOT_FOUND.
    const [p, rs] = await Promise.all([api(base), api(`${base}/ratings?limit=1`).catch((err) => {
      if (err.status === 404 && err.code === "NOT_FOUND") return null;
      throw err;
    })]);
    const mine = me() && me().id === p.id;
    // A program (an engine) is marked as one beside its name, in words.
    $("player-name").replaceChildren(p.name, ...(p.program === true ? [" ", el("span", { class: "program", id: "program-mark", text: t("profile.program") })] : []));
    document.title = `${p.name} · ${t("site.name")}`;
    const bot = p.id.startsWith("bot-");
    const since = p.created_at ? t("profile.since", { when: when(p.created_at) }) : t("profile.a_player");
    $("about").replaceChildren(el("span", { text: `${since}${mine ? ` ${t("you_tag")}` : ""}. ` }),
      el("span", { class: "muted small" }, `${t("profile.id")} `, el("code", { id: "player-id", text: p.id }), ".",
        bot ? ` ${t("profile.bot")}` : null),
      ...(p.program === true ? [el("span", { id: "program-note", text: ` ${t("profile.program_note")}` })] : []));
    const played = rs ? FORMATS.map(([f]) => f).filter((f) => rs.ratings[f]) : [];
    if (!rs) {
      $("formats-box").replaceChildren(el("section", { class: "panel", id: "no-ratings" }, el("p", { text: t("profile.no_ratings_server") })));
    } else if (!played.length) {
      $("formats-box").replaceChildren(el("section", { class: "panel", id: "no-ratings" },
        el("p", { text: t("profile.no_rated") })));
    } else {
      $("formats-box").replaceChildren(...(await Promise.all(played.map((f) => section(f, rs.ratings[f])))));
    }
  } catch (err) {
    $("about").textContent = err.status === 404 ? t("profile.no_such") : t("profile.cannot");
    showError($("error"), err);
  } finally {
    $("profile").dataset.loaded = "1";
  }
}

load();
