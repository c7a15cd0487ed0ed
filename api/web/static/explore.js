// Explore and Play on in the replay viewer (docs/review.md, "Explore" and "Play on"): at a step
// whose next event is a decision, the options the seat to move had there, each with the
// review's own value, the move played and the best marked; and a button that plays on from
// that very position against bots, opening the new match at /play/{id}.
import { api, el, t, tileSVG, endName, seatLabel, problemText, saveSeat } from "/assets/common.js";

// ACTIONS are the events a seat's choice makes; any other next event offers nothing.
const ACTIONS = ["tile.played", "tile.drawn", "turn.passed"];

// bots are the strategies a branch may take, from the document's enum of the branch request's
// bot (weakest first, as go generate writes it), so that the list has one source.
const bots = fetch("/swagger/doc.json")
  .then((r) => (r.ok ? r.json() : {}))
  .then((doc) => {
    const defs = doc.definitions || {};
    const key = Object.keys(defs).find((k) => k.endsWith("CreateBranchRequest"));
    const names = (((defs[key] || {}).properties || {}).bot || {}).enum || [];
    return names.length ? names : ["greedy"];
  })
  .catch(() => ["greedy"]);

const signed = (x) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.abs(x).toFixed(1)}`;

// optionText writes a move as the review does: a tile and its end, "draw" or "pass".
function optionText(m) {
  if (m.action === "play") return m.end ? `${m.tile} (${endName(m.end)})` : m.tile;
  return t(m.action === "draw" ? "review.draw" : "review.pass");
}

function optionItem(o) {
  const marks = [o.played ? t("explore.played") : "", o.best ? t("explore.best") : ""].filter(Boolean).join(", ");
  return el("li", { class: `option${o.best ? " best" : ""}${o.played ? " played" : ""}`, "data-move": `${o.move.action}:${o.move.tile || ""}:${o.move.end || ""}` },
    o.move.action === "play" ? el("span", { class: "hand-tile", "data-tile": o.move.tile }, tileSVG(o.move.tile, true)) : null,
    el("span", { class: "option-move", text: optionText(o.move) }),
    el("span", { class: "option-value", text: t("explore.value", { value: signed(o.value) }) }),
    marks ? el("span", { class: "tag", text: marks }) : null);
}

// explorePanel fills root for the match at base (seats, finished, and every event of its
// log), and returns {showStep(step), judged(seqs)}: showStep shows the options of the
// decision after that step, if any; judged gives the review's decisions, once it is done.
// The panel asks only for decisions the review judged, so that it never asks for a step that
// is none: before the review, it says to ask for one.
export function explorePanel(root, base, seats, finished, events) {
  let decisions = null; // the review's decisions' seqs, once it is done
  let shown = -1;
  const cache = new Map();
  const status = el("p", { id: "explore-status", "aria-live": "polite" });
  const list = el("ul", { id: "explore-options", class: "options" });
  const bot = el("select", { id: "play-on-bot" });
  const button = el("button", { type: "button", id: "play-on", text: t("explore.play_on") });
  const failure = el("p", { id: "play-on-error", class: "error", role: "alert", hidden: true });
  const form = el("div", { id: "play-on-form", class: "controls", hidden: true },
    el("label", { for: "play-on-bot", text: t("explore.bots") }), bot, button);
  root.replaceChildren(status, list, form, failure);
  bots.then((names) => bot.replaceChildren(...names.map((n) => el("option", { value: n, text: n }))))
    .then(() => { bot.value = bot.querySelector('option[value="level-5"]') ? "level-5" : bot.options[bot.options.length - 1].value; });
  let next = 0; // the decision shown: the event after the step

  button.addEventListener("click", async () => {
    button.disabled = true;
    failure.hidden = true;
    try {
      const r = await api(`${base}/branches`, { method: "POST", body: { step: next, bot: bot.value } });
      saveSeat(r.match.id, r.match.you ? r.match.you.seat : 0, r.token);
      location.href = `/play/${encodeURIComponent(r.match.id)}`;
    } catch (err) {
      failure.textContent = t("explore.could_not", { why: problemText(err) });
      failure.hidden = false;
      button.disabled = false;
    }
  });

  const fetchStep = (seq) => {
    if (!cache.has(seq)) cache.set(seq, api(`${base}/analysis?step=${seq}`).catch((err) => ({ err })));
    return cache.get(seq);
  };

  const showStep = async (step) => {
    shown = step;
    const ev = events[step]; // the event numbered step + 1
    next = ev ? ev.seq : 0;
    list.replaceChildren();
    form.hidden = true;
    if (!finished) return void (status.textContent = t("explore.not_finished"));
    if (!ev || !ACTIONS.includes(ev.type)) return void (status.textContent = t("explore.no_choice"));
    if (!decisions) return void (status.textContent = t("explore.needs_review"));
    if (!decisions.has(ev.seq)) return void (status.textContent = t("explore.forced"));
    status.textContent = t("loading");
    const x = await fetchStep(ev.seq);
    if (next !== ev.seq) return; // another step was asked for meanwhile
    if (x.err) {
      status.textContent = x.err.code === "NOT_A_DECISION" ? t("explore.forced") : t("explore.could_not", { why: problemText(x.err) });
      return;
    }
    status.textContent = t("explore.options", { who: seatLabel(seats[x.seat], x.seat) });
    list.replaceChildren(...x.options.map(optionItem));
    form.hidden = false;
    root.dataset.step = String(x.step);
  };
  const judged = (seqs) => {
    decisions = seqs;
    if (shown >= 0) showStep(shown);
  };
  return { showStep, judged };
}
