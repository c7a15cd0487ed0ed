// A tournament's page (docs/api-web.md, "The web client"): what it is, its entries, its rounds
// with each table's pairing linked to its match, and the standings, read again every 2 s
// while it is upcoming or running, so that they stay live. A signed-in player joins, and
// withdraws before the start; the organiser may start it early.
import { api, el, t, showError, matchId } from "/assets/common.js";
import { locale } from "/assets/i18n.js";
import { me } from "/assets/player.js";
import { profileLink } from "/assets/ratings.js";
import { summary, statusName, scoringText, pointsText, botStrategies } from "/assets/tourtext.js";

const $ = (sel) => document.getElementById(sel);
const id = matchId(); // /tournaments/{id}
const base = `/api/v1/tournaments/${encodeURIComponent(id)}`;
const num = (x) => Number(x).toLocaleString(locale, { maximumFractionDigits: 2 });
let timer = null;
let shownStatus = "";

async function load() {
  clearTimeout(timer);
  try {
    render(await api(base));
    showError($("error"), null);
  } catch (err) {
    showError($("error"), err);
    if (err.status === 404) return;
  } finally {
    $("tournament").dataset.loaded = "1";
  }
  if (["upcoming", "running", ""].includes(shownStatus)) timer = setTimeout(load, 2000);
}

function render(v) {
  const p = me();
  shownStatus = v.status;
  $("tournament").dataset.status = v.status;
  $("tournament").dataset.version = String(v.version);
  $("t-name").textContent = v.spec.name;
  document.title = `${v.spec.name} · ${t("site.name")}`;
  $("t-summary").textContent = summary(v);
  const status = statusName(v.status);
  const round = v.rounds.length ? t("tour.round_of", { round: v.rounds.length, rounds: v.planned_rounds }) : "";
  const text = v.status === "running" && round ? `${status}: ${round}` : status;
  if ($("t-status").textContent !== text) $("t-status").textContent = text; // said once per change
  $("t-organiser").textContent = t("tour.organiser", { who: v.organiser.name });
  const entered = !!p && v.entries.some((e) => e.player === p.id);
  const open = v.status === "upcoming";
  $("t-join").hidden = !(p && open && !entered);
  $("t-withdraw").hidden = !(p && open && entered);
  $("t-start").hidden = !(p && open && v.organiser.id === p.id);
  $("t-bots").hidden = $("t-start").hidden; // the organiser enters bots
  scoring(v);
  $("t-signin").hidden = !!p || !open;
  entries(v, p);
  standings(v, p);
  rounds(v, p);
}

function entries(v, p) {
  const ul = $("t-entries");
  ul.replaceChildren(...v.entries.map((e) => el("li", { "data-player": e.player },
    profileLink(e.player, e.name), e.bot ? el("span", { class: "muted", text: ` · ${t("tour.bot")}` }) : null,
    p && e.player === p.id ? el("span", { class: "tag", text: ` ${t("you_tag")}` }) : null)));
  if (!v.entries.length) ul.append(el("li", { class: "muted", text: t("none_yet") }));
}

// scoring says, once, how the tournament's points are counted.
function scoring(v) {
  const box = $("t-scoring-text");
  if (box.children.length) return;
  box.replaceChildren(...scoringText(v).map((text) => el("p", { text })));
  $("t-scoring").hidden = false;
}

// standings fills the table of standings; on a phone each row is a card whose figures are
// labelled by their columns' names (data-label), so no column is cut.
function standings(v, p) {
  const cell = (label, cls, text) => el("td", { class: `num ${cls}`, "data-label": t(label), text });
  $("t-standings-rows").replaceChildren(...v.standings.map((s) => {
    const mine = p && p.id === s.player;
    return el("tr", { "data-player": s.player, class: mine ? "you" : "" },
      cell("board.rank", "rank", String(s.rank)),
      el("th", { scope: "row" }, profileLink(s.player, s.name), mine ? el("span", { class: "tag", text: ` ${t("you_tag")}` }) : null),
      cell("tour.points", "points", pointsText(v, s.points, num)),
      cell("board.wins", "wins", String(s.wins)),
      cell("tour.played", "played", String(s.played)),
      cell("tour.tiebreak", "tiebreak", t("tour.tiebreaks", { buchholz: num(s.buchholz), sb: num(s.sonneborn_berger) })));
  }));
  $("t-standings").hidden = !v.standings.length;
}

// tableLink is where a table's pairing leads: its replay once its match ended (it has scores),
// else the table, told which tournament it is of so that its badge names the round.
const tableLink = (tb) => (tb.scores && tb.scores.length ? `/replay/${encodeURIComponent(tb.match)}`
  : `/play/${encodeURIComponent(tb.match)}?tournament=${encodeURIComponent(id)}`);

// rounds lists each round's tables: the seats' names, the scores once the match ended, and a
// link to the match: its table while it is played, its replay once it ended.
function rounds(v, p) {
  const box = $("t-rounds");
  if (!v.rounds.length) {
    box.replaceChildren(el("p", { class: "muted", text: t(v.status === "upcoming" ? "tour.not_started" : "none_yet") }));
    return;
  }
  const names = new Map(v.entries.map((e) => [e.player, e.name]));
  box.replaceChildren(...v.rounds.slice().reverse().map((r) => el("section", { class: "round", "data-round": r.round, "aria-labelledby": `round-${r.round}` },
    el("h3", { id: `round-${r.round}`, text: `${t("tour.round", { round: r.round })} · ${t(r.status === "ended" ? "tour.round_ended" : "tour.round_running")}` }),
    el("ul", { class: "matches" },
      ...r.tables.map((tb) => {
        const who = tb.seats.map((s) => s.name).join(" – ");
        const score = tb.scores && tb.scores.length ? ` ${tb.scores.join(" – ")}` : "";
        const mine = p && tb.seats.some((s) => s.player === p.id);
        return el("li", { "data-table": tb.table, class: mine ? "you" : "" },
          tb.match ? el("a", { class: "pairing", href: tableLink(tb), "data-match": tb.match, text: who }) : who,
          score ? el("b", { text: score }) : null,
          mine ? el("span", { class: "tag", text: ` ${t("you_tag")}` }) : null);
      }),
      ...(r.byes || []).map((b) => el("li", { class: "muted", text: t("tour.bye", { who: names.get(b) || b }) }))))));
}

// act enters, withdraws or starts with the player's key, then reads the tournament again.
async function act(button, call) {
  button.disabled = true;
  try {
    await call(me().key);
    showError($("error"), null);
  } catch (err) {
    showError($("error"), err);
  } finally {
    button.disabled = false;
  }
  load();
}

$("t-join").addEventListener("click", (ev) => act(ev.target, (key) => api(`${base}/entries`, { method: "POST", token: key })));
$("t-withdraw").addEventListener("click", (ev) => act(ev.target, (key) => api(`${base}/entries/me`, { method: "DELETE", token: key })));
$("t-start").addEventListener("click", (ev) => act(ev.target, (key) => api(`${base}/start`, { method: "POST", token: key })));
$("t-add-bot").addEventListener("click", (ev) => act(ev.target, (key) => api(`${base}/entries`, { method: "POST", body: { bot: $("t-bot").value }, token: key })));
botStrategies().then((bots) => $("t-bot").replaceChildren(...bots.map((b) => el("option", { value: b, text: t("kind.bot_option", { bot: b }) }))));
load();
