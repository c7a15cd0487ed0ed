// The review on the replay viewer (docs/review.md): each step's judgement in plain words, the
// value of each move played drawn as a chart with its axes and a legend naming each player's
// line, the worst moves linked to their steps, and each seat's accuracy and luck against skill.
// How the review was judged (its method) is one click away. The page asks for the review only
// when the match's own view says there is one (its review field): a match without one offers
// a button, and no request is made to a review that does not exist.
import { api, el, t, seatLabel, endName, problemText } from "/assets/common.js";
import { cardify } from "/assets/cards.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1500;

// moveText writes a move as the table says it: a tile and its end, "draw" or "pass".
function moveText(m) {
  if (!m) return "?";
  if (m.action === "play") return m.end ? `${m.tile} (${endName(m.end)})` : m.tile;
  return t(m.action === "draw" ? "review.draw" : "review.pass");
}

const sameMove = (a, b) => a && b && a.action === b.action && a.tile === b.tile && a.end === b.end;
const signed = (x) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.abs(x).toFixed(1)}`;

function valueOf(d, move) {
  const c = d.candidates.find((x) => sameMove(x.move, move));
  return c ? c.value : NaN;
}

// CLASSES are the review's classes, best first; className says one in plain words.
const CLASSES = ["best", "good", "inaccuracy", "mistake", "blunder"];
export const className = (c) => t(`class.${c}`);

// judgement says one decision in words: "Ada played 6-1 (0.0); 5-5 was best (+10.0): a
// mistake, it cost 8.5 points".
export function judgement(d, seats) {
  const who = seatLabel(seats[d.seat], d.seat);
  const vars = { who, played: moveText(d.played), value: signed(valueOf(d, d.played)), best: moveText(d.best), bestValue: signed(valueOf(d, d.best)), cls: className(d.class), loss: `−${d.loss.toFixed(1)}` };
  return d.class === "best" ? t("review.judged_best", vars) : t("review.judged", vars);
}

// reviewPanel fills the element root for the match at base, whose view says its review
// stands at state (none, running, done, failed, or undefined when the server offers none for
// it); goTo(seq) moves the viewer to a step; judged(seqs), when given, hears the seqs of the
// review's decisions once it is done. It returns showStep(step), which says the judgement of
// the decision that step made.
export function reviewPanel(root, base, state, seats, goTo, judged = () => {}) {
  let decisions = new Map();
  let current = 0;
  const status = el("p", { id: "review-status", "aria-live": "polite", text: "" });
  const body = el("div", { id: "review-body" });
  const stepLine = el("p", { id: "review-step", class: "event small" });
  root.replaceChildren(status, stepLine, body);

  const showStep = (step) => {
    current = step;
    const d = decisions.get(step);
    stepLine.textContent = d ? judgement(d, seats) : decisions.size ? t("review.no_decision") : "";
    stepLine.dataset.class = d ? d.class : "";
  };

  const render = (rv) => {
    decisions = new Map(rv.decisions.map((d) => [d.seq, d]));
    judged(new Set(decisions.keys()));
    status.textContent = t("review.done", { n: rv.decisions.length });
    body.replaceChildren(seatTable(rv, seats), graph(rv, seats, goTo), worst(rv, seats, goTo),
      el("details", { id: "review-method", class: "small" }, el("summary", { text: t("review.how") }),
        el("p", { text: t("review.how_text") }), el("p", {}, `${t("review.method")}: `, el("code", { text: rv.method }))));
    showStep(current);
  };

  const answer = (rv) => {
    if (rv && rv.status === "done") return render(rv);
    status.textContent = t("review.running");
    setTimeout(poll, POLL_MS);
  };

  const poll = async () => {
    try {
      answer(await api(`${base}/review`));
    } catch (err) {
      // The view said there was one; a store that lost it since is offered afresh.
      if (err.status === 404 && err.code === "REVIEW_NOT_FOUND") return offer("review.none_here");
      status.textContent = t("review.unavailable", { why: problemText(err) });
    }
  };

  const offer = (why) => {
    status.textContent = t(why);
    const button = el("button", { type: "button", id: "review-request", text: t("review.request") });
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const rv = await api(`${base}/review`, { method: "POST" });
        button.remove();
        answer(rv);
      } catch (err) {
        button.disabled = false;
        status.textContent = t("review.could_not", { why: problemText(err) });
      }
    });
    body.replaceChildren(button);
  };

  switch (state) {
    case "done":
      status.textContent = t("review.loading");
      poll();
      break;
    case "running":
      status.textContent = t("review.running");
      poll();
      break;
    case "none":
      offer("review.none_here");
      break;
    case "failed": // asking again computes it afresh
      offer("review.failed");
      break;
    default: // a sealed match, or a server that computes no reviews
      status.textContent = t("review.not_offered");
  }
  return showStep;
}

// seatTable is each seat's accuracy, mean loss, classes, and its side's luck against skill;
// on a phone each seat is a card (cards.js), so no figure is cut.
function seatTable(rv, seats) {
  const head = [t("review.col.player"), t("review.col.accuracy"), t("review.col.loss"), ...CLASSES.map(className), t("review.col.luck"), t("review.col.skill")];
  return el("div", { class: "scroll" }, cardify(el("table", { id: "review-seats", class: "review-seats" },
    el("caption", { class: "visually-hidden", text: t("review.table_caption") }),
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rv.seats.map((s) => el("tr", { "data-seat": s.seat },
      el("th", { scope: "row", text: seatLabel(seats[s.seat], s.seat) }),
      el("td", { text: `${s.accuracy.toFixed(1)}%` }),
      el("td", { text: s.mean_loss.toFixed(2) }),
      ...CLASSES.map((c) => el("td", { class: "num", text: String(s.classes[c]) })),
      el("td", { text: signed(s.luck) }),
      el("td", { text: signed(s.skill) })))))),
  el("p", { class: "small muted", text: t("review.luck_skill") }));
}

function svg(tag, attrs = {}, text = "") {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text) node.textContent = text;
  return node;
}

// graph draws, per seat, the value of each move it played across the match (its side's
// expected points then), one line a seat over the steps, with the axes named and marked and a
// legend naming each line by its player. A point is a step's judgement, a click away.
function graph(rv, seats, goTo) {
  const W = 640, H = 220, left = 44, right = 12, top = 12, bottom = 36;
  const ds = rv.decisions;
  const chart = svg("svg", { id: "review-graph", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "review-graph-title" });
  chart.append(svg("title", { id: "review-graph-title" }, t("review.chart_title")));
  if (!ds.length) return chart;
  const values = ds.map((d) => valueOf(d, d.played)).filter(Number.isFinite);
  const span = Math.max(1, ...values.map(Math.abs));
  const first = ds[0].seq, last = ds[ds.length - 1].seq;
  const x = (seq) => left + ((W - left - right) * (seq - first)) / Math.max(1, last - first);
  const y = (v) => top + ((H - top - bottom) * (span - v)) / (2 * span);
  // The axes: points up the side (the top, 0 and the bottom marked), steps along the bottom.
  for (const v of [span, 0, -span]) {
    chart.append(svg("line", { x1: left, x2: W - right, y1: y(v).toFixed(1), y2: y(v).toFixed(1), class: v === 0 ? "axis zero" : "axis" }));
    chart.append(svg("text", { x: left - 4, y: (y(v) + 4).toFixed(1), class: "tick", "text-anchor": "end" }, signed(v)));
  }
  chart.append(svg("line", { x1: left, x2: left, y1: top, y2: H - bottom, class: "axis" }));
  for (const seq of [first, Math.round((first + last) / 2), last]) {
    chart.append(svg("text", { x: x(seq).toFixed(1), y: H - bottom + 14, class: "tick", "text-anchor": "middle" }, String(seq)));
  }
  chart.append(svg("text", { x: (W + left - right) / 2, y: H - 4, class: "tick axis-name", "text-anchor": "middle" }, t("review.x_axis")));
  chart.append(svg("text", { x: 10, y: (top + H - bottom) / 2, class: "tick axis-name", "text-anchor": "middle", transform: `rotate(-90 10 ${(top + H - bottom) / 2})` }, t("review.y_axis")));
  for (const seat of seats.map((s) => s.seat)) {
    const mine = ds.filter((d) => d.seat === seat && Number.isFinite(valueOf(d, d.played)));
    chart.append(svg("polyline", { points: mine.map((d) => `${x(d.seq).toFixed(1)},${y(valueOf(d, d.played)).toFixed(1)}`).join(" "), class: `seat-line seat-${seat}` }));
    for (const d of mine) {
      const dot = svg("circle", { cx: x(d.seq).toFixed(1), cy: y(valueOf(d, d.played)).toFixed(1), r: d.class === "best" || d.class === "good" ? 3 : 5, class: `dot seat-${seat} ${d.class}` });
      dot.append(svg("title", {}, `${t("review.step", { n: d.seq })}: ${judgement(d, seats)}`));
      dot.addEventListener("click", () => goTo(d.seq));
      chart.append(dot);
    }
  }
  const legend = el("ul", { class: "legend", id: "review-legend" }, ...seats.map((s) =>
    el("li", { "data-seat": s.seat }, el("span", { class: `swatch seat-${s.seat}`, "aria-hidden": "true" }), seatLabel(s, s.seat))));
  return el("figure", { class: "review-graph" }, chart, legend,
    el("figcaption", { class: "small muted", text: t("review.caption") }));
}

// worst lists the costliest decisions, each linked to its step.
function worst(rv, seats, goTo) {
  const top = rv.decisions.filter((d) => d.loss > 0).sort((a, b) => b.loss - a.loss || a.seq - b.seq).slice(0, 5);
  return el("div", {},
    el("h3", { text: t("review.worst") }),
    top.length ? el("ol", { id: "review-worst" }, ...top.map((d) =>
      el("li", {}, el("a", { href: `?step=${d.seq}`, "data-step": d.seq, onclick: (ev) => { ev.preventDefault(); goTo(d.seq); } }, `${t("review.step", { n: d.seq })}: ${judgement(d, seats)}`))))
      : el("p", { id: "review-worst", text: t("review.no_loss") }));
}
