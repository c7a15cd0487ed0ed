// The review on the replay viewer (docs/review.md): each step's judgement, the evaluation across
// the match drawn as SVG, the worst moves linked to their steps, and each seat's accuracy and
// luck against skill. A match never reviewed offers a button; a review still running is polled.
import { api, el, seatLabel } from "/assets/common.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1500;

// moveText writes a move as the table says it: a tile and its end, "draw" or "pass".
function moveText(m) {
  if (!m) return "?";
  if (m.action === "play") return m.end ? `${m.tile} (${m.end})` : m.tile;
  return m.action;
}

const sameMove = (a, b) => a && b && a.action === b.action && a.tile === b.tile && a.end === b.end;
const signed = (x) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.abs(x).toFixed(1)}`;

function valueOf(d, move) {
  const c = d.candidates.find((x) => sameMove(x.move, move));
  return c ? c.value : NaN;
}

// judgement says one decision in words: "Ada played 6-1 (0.0); 5-5 was best (+10.0): mistake, −8.5".
export function judgement(d, seats) {
  const who = seatLabel(seats[d.seat], d.seat);
  const played = `${who} played ${moveText(d.played)} (${signed(valueOf(d, d.played))})`;
  if (d.class === "best") return `${played}: best${d.exact ? " (exact)" : ""}.`;
  return `${played}; ${moveText(d.best)} was best (${signed(valueOf(d, d.best))}): ${d.class}, −${d.loss.toFixed(1)}.`;
}

// reviewPanel fills the element root for the match at base; goTo(seq) moves the viewer to a
// step. It returns showStep(step), which says the judgement of the decision that step made.
export function reviewPanel(root, base, seats, goTo) {
  let decisions = new Map();
  let current = 0;
  const status = el("p", { id: "review-status", "aria-live": "polite", text: "Looking for a review…" });
  const body = el("div", { id: "review-body" });
  const stepLine = el("p", { id: "review-step", class: "event small" });
  root.replaceChildren(status, stepLine, body);

  const showStep = (step) => {
    current = step;
    const d = decisions.get(step);
    stepLine.textContent = d ? judgement(d, seats) : decisions.size ? "No decision at this step: a forced move, or not a move." : "";
    stepLine.dataset.class = d ? d.class : "";
  };

  const render = (rv) => {
    decisions = new Map(rv.decisions.map((d) => [d.seq, d]));
    status.textContent = `Reviewed: ${rv.decisions.length} decisions judged (${rv.method}).`;
    body.replaceChildren(seatTable(rv, seats), graph(rv, seats, goTo), worst(rv, seats, goTo));
    showStep(current);
  };

  const poll = async () => {
    try {
      const rv = await api(`${base}/review`);
      if (rv && rv.status === "done") return render(rv);
      status.textContent = "The review is running…";
      setTimeout(poll, POLL_MS);
    } catch (err) {
      if (err.status === 404) return offer();
      status.textContent = err.status === 409 ? "A match is reviewed once it has finished." : `The review is not available: ${err.message}`;
    }
  };

  const offer = () => {
    status.textContent = "This match has not been reviewed yet.";
    const button = el("button", { type: "button", id: "review-request", text: "Review this match" });
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await api(`${base}/review`, { method: "POST" });
        status.textContent = "The review is running…";
        button.remove();
        setTimeout(poll, POLL_MS);
      } catch (err) {
        button.disabled = false;
        status.textContent = `The review could not start: ${err.message}`;
      }
    });
    body.replaceChildren(button);
  };

  poll();
  return showStep;
}

// seatTable is each seat's accuracy, mean loss, classes, and its side's luck against skill.
function seatTable(rv, seats) {
  const head = ["Seat", "Accuracy", "Mean loss", "Best / good / inaccuracy / mistake / blunder", "Luck", "Skill"];
  return el("table", { id: "review-seats", class: "review-seats" },
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rv.seats.map((s) => {
      const c = s.classes;
      return el("tr", { "data-seat": s.seat },
        el("th", { scope: "row", text: seatLabel(seats[s.seat], s.seat) }),
        el("td", { text: `${s.accuracy.toFixed(1)}%` }),
        el("td", { text: s.mean_loss.toFixed(2) }),
        el("td", { text: `${c.best} / ${c.good} / ${c.inaccuracy} / ${c.mistake} / ${c.blunder}` }),
        el("td", { text: signed(s.luck) }),
        el("td", { text: signed(s.skill) }));
    })));
}

// graph draws, per seat, the value of each move it played across the match (its side's expected
// points then), one polyline a seat over the steps; a point is a link to its step.
function graph(rv, seats, goTo) {
  const W = 640, H = 180, pad = 24;
  const ds = rv.decisions;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("id", "review-graph");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "the value of each move played, by seat, across the match");
  if (!ds.length) return svg;
  const values = ds.map((d) => valueOf(d, d.played)).filter(Number.isFinite);
  const top = Math.max(1, ...values.map(Math.abs));
  const first = ds[0].seq, last = ds[ds.length - 1].seq;
  const x = (seq) => pad + ((W - 2 * pad) * (seq - first)) / Math.max(1, last - first);
  const y = (v) => H / 2 - ((H / 2 - pad) * v) / top;
  const axis = document.createElementNS(SVG, "line");
  for (const [k, v] of Object.entries({ x1: pad, x2: W - pad, y1: y(0), y2: y(0), class: "axis" })) axis.setAttribute(k, v);
  svg.append(axis);
  for (const seat of seats.map((s) => s.seat)) {
    const mine = ds.filter((d) => d.seat === seat && Number.isFinite(valueOf(d, d.played)));
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", mine.map((d) => `${x(d.seq).toFixed(1)},${y(valueOf(d, d.played)).toFixed(1)}`).join(" "));
    line.setAttribute("class", `seat-line seat-${seat}`);
    svg.append(line);
    for (const d of mine) {
      const dot = document.createElementNS(SVG, "circle");
      for (const [k, v] of Object.entries({ cx: x(d.seq).toFixed(1), cy: y(valueOf(d, d.played)).toFixed(1), r: d.class === "best" || d.class === "good" ? 2.5 : 4, class: `dot seat-${seat} ${d.class}` })) dot.setAttribute(k, v);
      const title = document.createElementNS(SVG, "title");
      title.textContent = `step ${d.seq}: ${judgement(d, seats)}`;
      dot.append(title);
      dot.addEventListener("click", () => goTo(d.seq));
      svg.append(dot);
    }
  }
  return el("figure", { class: "review-graph" }, svg,
    el("figcaption", { class: "small muted", text: `Each seat's value of the move it played (points, its side's view), ${seats.map((s) => `${seatLabel(s, s.seat)}: line ${s.seat}`).join(", ")}.` }));
}

// worst lists the costliest decisions, each linked to its step.
function worst(rv, seats, goTo) {
  const top = rv.decisions.filter((d) => d.loss > 0).sort((a, b) => b.loss - a.loss || a.seq - b.seq).slice(0, 5);
  return el("div", {},
    el("h3", { text: "The worst moves" }),
    top.length ? el("ol", { id: "review-worst" }, ...top.map((d) =>
      el("li", {}, el("a", { href: `?step=${d.seq}`, "data-step": d.seq, onclick: (ev) => { ev.preventDefault(); goTo(d.seq); } }, `Step ${d.seq}: ${judgement(d, seats)}`))))
      : el("p", { id: "review-worst", text: "No move lost anything." }));
}
