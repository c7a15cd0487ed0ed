// The replay viewer: step through a match with a slider, buttons and the keyboard. Each step is
// the API's own replay answer (GET /matches/{id}/replay?step=N), so what is drawn is what the
// referee says the match was right after that event.
import { api, matchId, el, showError, tileSVG, drawLine, describe, markLeads, scoreList, sideName, seatLabel, t, tn, problemText } from "/assets/common.js";
import { reviewPanel } from "/assets/review.js";
import { explorePanel } from "/assets/explore.js";
import { changesList, formatName } from "/assets/ratings.js";

const id = matchId();
const base = `/api/v1/matches/${encodeURIComponent(id)}`;
const $ = (sel) => document.getElementById(sel);
const main = $("replay");
const errorBox = $("error");
const slider = $("slider");

const cache = new Map(); // step -> replay answer
let max = 1;
let wanted = 1;
let events = []; // every event, from the export, for the list and for leads
let reviewStep = () => {}; // says the review's judgement of a step, once there is a review
let exploreStep = () => {}; // shows the options of the decision after a step
let rated = null; // a finished rated match's view, with its rating changes once it is rated

function fetchStep(n) {
  if (!cache.has(n)) {
    const p = api(`${base}/replay?step=${n}`);
    cache.set(n, p);
    p.catch(() => cache.delete(n));
  }
  return cache.get(n);
}

// go moves to step n (clamped) and draws it once its answer is in, unless another step was
// asked for meanwhile.
async function go(n) {
  n = Math.min(max, Math.max(1, n));
  wanted = n;
  slider.value = String(n);
  $("step-no").textContent = String(n);
  const url = new URL(location.href);
  url.searchParams.set("step", String(n));
  history.replaceState(null, "", url);
  try {
    const r = await fetchStep(n);
    if (wanted !== n) return;
    render(r);
    showError(errorBox, null);
    if (n < max) fetchStep(n + 1).catch(() => {});
  } catch (err) {
    if (wanted === n) showError(errorBox, err);
  }
}

function render(r) {
  const m = r.match;
  const ev = events[r.step - 1] || r.event;
  const line = m.hand ? m.hand.line : [];
  if (ev.type === "tile.played" && line.length) ev.laid = ev.data.end === "right" ? line[line.length - 1] : line[0];
  $("event").textContent = describe(ev, m.seats);
  scoreList($("scores"), m.seats, m.scores, m.target);
  const h = m.hand;
  $("hand-info").textContent = m.status === "finished"
    ? t("replay.finished", { side: sideName(m.seats, m.winner_side) })
    : h && h.number > 0 ? `${t("replay.hand", { n: h.number })} ${m.status === "in_progress" ? t("play.to_move", { who: seatLabel(m.seats[h.turn], h.turn) }) : ""}`
    : t("replay.before");
  drawLine($("line"), h ? h.line : [], ev.type === "tile.played" ? ev.data.end : "");
  const end = (e) => (e.double ? t("ends.double", { pip: e.pip }) : String(e.pip));
  $("ends").textContent = h && h.left ? t("ends.count", { left: end(h.left), right: end(h.right), total: h.total }) : "";
  renderHands(m);
  renderRatings(r.step);
  reviewStep(r.step);
  exploreStep(r.step);
  main.dataset.step = String(r.step);
}

// renderRatings shows, at the last step of a rated match, what it did to each seat's rating.
function renderRatings(step) {
  const changes = rated && step === max ? rated.rating_changes || [] : [];
  $("replay-ratings").hidden = changes.length === 0;
  if (!changes.length) return;
  $("replay-ratings-title").textContent = t("rating.changes_of", { format: formatName(changes[0].format) });
  $("replay-rating-list").replaceChildren(changesList(changes, rated.seats));
}

function renderHands(m) {
  const h = m.hand;
  const hands = (h && h.hands) || [];
  $("hands").replaceChildren(
    ...m.seats.map((s) => {
      const tiles = hands[s.seat] || [];
      const toMove = h && m.status === "in_progress" && h.turn === s.seat && h.number > 0;
      return el("div", { class: `seat${toMove ? " to-move" : ""}`, "data-seat": s.seat },
        el("h3", {}, `${seatLabel(s, s.seat)} `, el("span", { class: "muted", text: `(${s.kind === "bot" ? t("kind.bot", { bot: s.bot }) : s.kind === "open" ? t("kind.open") : t("kind.human")}, ${tn("tiles", s.tiles)})` }),
          toMove ? el("span", { class: "tag", text: ` ▶ ${t("to_move")}` }) : null),
        el("div", { class: "tiles" }, ...tiles.map((t) => el("span", { class: "hand-tile", "data-tile": t }, tileSVG(t, true)))));
    }),
  );
  const bone = (h && h.boneyard_tiles) || [];
  $("boneyard-count").textContent = h ? `(${h.boneyard})` : "";
  $("boneyard").replaceChildren(...bone.map((t) => el("span", { class: "hand-tile", "data-tile": t }, tileSVG(t, true))));
}

// audit shows the server's verdict, and checks the revealed seed against the commitment here
// too when the browser can hash (crypto.subtle needs a secure context such as localhost).
async function audit(view) {
  try {
    const a = await api(`${base}/audit`);
    $("audit-verdict").textContent = a.ok
      ? t("audit.ok", { checks: a.checks.length, events: a.events })
      : a.first_bad_seq ? t("audit.bad_at", { seq: a.first_bad_seq }) : t("audit.bad");
    $("audit-verdict").className = a.ok ? "ok" : "bad";
    $("audit-checks").replaceChildren(...a.checks.map((c) =>
      el("li", { class: c.ok ? "ok" : "bad" }, el("b", { text: `${c.ok ? t("audit.pass") : t("audit.fail")} ${c.name}: ` }), el("span", { lang: "en", text: c.detail }))));
  } catch (err) {
    $("audit-verdict").textContent = t("audit.could_not", { why: problemText(err) });
  }
  const ended = events.find((e) => e.type === "match.ended");
  if (!ended) {
    $("seed-check").textContent = t("audit.secret", { commitment: view.commitment });
    return;
  }
  const seed = ended.data.seed;
  if (!(window.crypto && crypto.subtle)) {
    $("seed-check").textContent = t("audit.insecure", { seed, commitment: view.commitment });
    return;
  }
  const bytes = new Uint8Array(seed.match(/../g).map((x) => parseInt(x, 16)));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  const ok = hex === view.commitment;
  $("seed-check").className = ok ? "ok" : "bad";
  $("seed-check").textContent = t(ok ? "audit.seed_ok" : "audit.seed_bad", { seed, commitment: view.commitment });
}

function renderLog(seats) {
  $("log").replaceChildren(...events.map((e) =>
    el("li", { value: e.seq }, el("a", { href: `?step=${e.seq}`, onclick: (ev) => { ev.preventDefault(); go(e.seq); } }, describe(e, seats)))));
}

function keys(ev) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.target === slider) return; // the slider steps by itself
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLTextAreaElement) return;
  const moves = { ArrowLeft: wanted - 1, ArrowRight: wanted + 1, Home: 1, End: max };
  if (!(ev.key in moves)) return;
  ev.preventDefault();
  go(moves[ev.key]);
}

async function start() {
  $("export-json").href = `${base}/export?format=json`;
  $("export-text").href = `${base}/export?format=text`;
  let exp;
  try {
    exp = await api(`${base}/export`);
  } catch (err) {
    showError(errorBox, err);
    $("event").textContent = "";
    return;
  }
  events = markLeads(exp.events);
  max = Math.max(1, exp.match.version);
  document.title = `${t("replay.title")}: ${exp.match.seats.map((s) => seatLabel(s, s.seat)).join(" v ")} · ${t("site.name")}`;
  slider.max = String(max);
  $("step-max").textContent = String(max);
  renderLog(exp.match.seats);
  // The export's match says whether the match has a review: the panel asks for none that
  // does not exist.
  const explore = explorePanel($("explore"), base, exp.match.seats, exp.match.status === "finished", events);
  exploreStep = explore.showStep;
  if (exp.match.status === "finished") reviewStep = reviewPanel($("review"), base, exp.match.review, exp.match.seats, go, explore.judged);
  else $("review").textContent = t("review.not_finished");
  $("first").addEventListener("click", () => go(1));
  $("prev").addEventListener("click", () => go(wanted - 1));
  $("next").addEventListener("click", () => go(wanted + 1));
  $("last").addEventListener("click", () => go(max));
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", keys);
  // Without ?step=, open on the first deal: the step before it is only the match's creation,
  // an empty table.
  const asked = new URL(location.href).searchParams.get("step");
  const deal = events.find((e) => e.type === "hand.started");
  const n = Number(asked);
  go(asked !== null && Number.isInteger(n) && n >= 1 ? n : deal ? deal.seq : 1);
  audit(exp.match);
  // The rating changes are kept beside the log: the match's own view carries them.
  if (exp.match.rated && exp.match.status === "finished") {
    api(base).then((v) => {
      rated = v;
      renderRatings(Number(main.dataset.step));
    }).catch(() => {});
  }
}

start();
