// The Puzzles page (docs/puzzles.md, "The web pages"): one puzzle at a time, the position as
// the deciding seat saw it, a button per legal move, and after a try the answer in plain
// words with every option's value, the source match, and the player's puzzle rating. A
// signed-in player's key is sent, so that its first try at each puzzle is rated.
import { api, el, t, tn, showError, drawLine, tileSVG, tileName, endName } from "/assets/common.js";
import { me } from "/assets/player.js";
import { moveText } from "/assets/puzzles-text.js";

const $ = (id) => document.getElementById(id);
const key = () => (me() ? me().key : undefined);
let current = null;

const same = (a, b) => a.action === b.action && (a.tile || "") === (b.tile || "") && (a.end || "") === (b.end || "");
const points = (v) => (Math.round(v * 10) / 10).toLocaleString(document.documentElement.lang || "en", { maximumFractionDigits: 1 });

function seatName(seat, you) {
  return seat === you ? t("puzzles.you") : t("seat.n", { n: seat });
}

function stepText(s, you) {
  const who = seatName(s.seat, you);
  if (s.action === "play") return t("puzzles.step_play", { who, tile: tileName(s.tile), end: endName(s.end) });
  if (s.action === "draw") return tn("puzzles.step_draw", s.count, { who });
  return t("puzzles.step_pass", { who });
}

function showSolver(sv) {
  if (!me()) {
    $("solver").replaceChildren(t("puzzles.sign_in"), " ", el("a", { href: "/", text: t("puzzles.sign_in_link") }));
  } else if (!sv) {
    $("solver").textContent = t("puzzles.no_rating");
  } else {
    $("solver").textContent = t("puzzles.rating", { rating: sv.rating, attempts: sv.attempts, solved: sv.solved });
  }
}

function render(p) {
  const pos = p.position;
  const scores = pos.scores.map((s, side) => t("puzzles.side_score", { side: side === pos.seat % pos.scores.length ? t("puzzles.your_side") : t("side.n", { n: side }), score: s })).join(", ");
  const sizes = pos.hand_sizes.map((n, s) => `${seatName(s, pos.seat)} ${n}`).join(", ");
  $("situation").textContent = t("puzzles.situation", { hand: pos.hand_number, target: pos.target, scores, sizes, boneyard: pos.boneyard, rating: p.rating });
  $("puzzle-board").hidden = false; // first: the line is laid out to its box's width
  drawLine($("line"), pos.line);
  const steps = pos.history.map((s) => el("li", { text: stepText(s, pos.seat) }));
  $("history").replaceChildren(...(steps.length ? steps : [el("li", { text: t("puzzles.history_none") })]));
  $("hand").replaceChildren(...pos.hand.map((x) => el("span", { class: "hand-tile" }, tileSVG(x, true))));
  $("move-buttons").replaceChildren(...p.legal_moves.map((m, i) => {
    const b = el("button", { type: "button", class: "puzzle-move", "data-move": i, text: moveText(m) });
    if (m.action === "play") b.prepend(tileSVG(m.tile), " ");
    b.addEventListener("click", () => attempt(m));
    return b;
  }));
  $("puzzle-board").hidden = false;
  $("answer").hidden = true;
  $("puzzle-status").textContent = t("puzzles.your_turn", { seat: pos.seat });
  $("puzzles").dataset.state = "puzzle";
}

async function load() {
  showError($("error"), null);
  $("puzzles").dataset.state = "loading";
  try {
    const res = await api("/api/v1/puzzles/next", { token: key() });
    current = res.puzzle;
    showSolver(res.solver);
    render(current);
  } catch (err) {
    $("puzzle-board").hidden = true;
    $("answer").hidden = true;
    if (err.code === "NO_PUZZLE") {
      $("puzzle-status").textContent = t("puzzles.none");
      $("puzzles").dataset.state = "none";
      showSolver(null);
      return;
    }
    $("puzzle-status").textContent = t("puzzles.cannot");
    $("puzzles").dataset.state = "error";
    showError($("error"), err);
  }
}

// explain says the answer in plain words: right or not, what the best move is worth and by how
// much it beats the next, and what the seat played in the match.
function explain(res) {
  const value = (m) => res.options.find((o) => same(o.move, m)).value;
  const best = value(res.best);
  const second = Math.max(...res.options.filter((o) => !o.best).map((o) => o.value));
  const vars = { move: moveText(res.move), best: moveText(res.best), value: points(value(res.move)), best_value: points(best), margin: points(best - second), diff: points(best - value(res.move)) };
  const lines = [res.correct ? t("puzzles.right", vars) : t("puzzles.wrong", vars), t("puzzles.margin", vars),
    t("puzzles.played", { played: moveText(res.played), loss: points(res.loss) })];
  if (!key()) lines.push(t("puzzles.unrated_anon"));
  else if (!res.rated) lines.push(t("puzzles.unrated"));
  return lines.join(" ");
}

async function attempt(m) {
  for (const b of document.querySelectorAll(".puzzle-move")) b.disabled = true;
  showError($("error"), null);
  try {
    const res = await api(`/api/v1/puzzles/${encodeURIComponent(current.id)}/attempts`, { method: "POST", body: { move: m }, token: key() });
    $("answer-title").textContent = res.correct ? t("puzzles.right_title") : t("puzzles.wrong_title");
    $("explain").textContent = explain(res);
    $("option-rows").replaceChildren(...res.options.map((o) => {
      const notes = [o.best && t("puzzles.note_best"), o.played && t("puzzles.note_played"), same(o.move, res.move) && t("puzzles.note_yours")].filter(Boolean);
      return el("tr", { class: o.best ? "best" : "" }, el("th", { scope: "row", text: moveText(o.move) }),
        el("td", { class: "num", text: points(o.value) }), el("td", { text: notes.join(", ") }));
    }));
    $("source").replaceChildren(t("puzzles.source"), " ",
      el("a", { href: `/replay/${encodeURIComponent(res.source.match)}?step=${res.source.step - 1}`, text: t("puzzles.source_link", { step: res.source.step }) }));
    if (res.solver) showSolver(res.solver);
    $("answer").hidden = false;
    $("puzzles").dataset.state = "answered";
    $("answer-title").focus();
  } catch (err) {
    for (const b of document.querySelectorAll(".puzzle-move")) b.disabled = false;
    showError($("error"), err);
  }
}

$("next").addEventListener("click", load);
document.title = `${t("puzzles.title")} · ${t("site.name")}`;
load();
