// Ratings in the client (docs/ratings.md, docs/api-web.md "The web client"): the formats, figures
// written alike on every page, and a rating's chart over a player's rated matches, drawn in
// SVG with its words and figures beside it for whoever cannot see it.
import { el, t, tn, when as whenT } from "/assets/common.js";

const SVG = "http://www.w3.org/2000/svg";

// FORMATS are the formats rated apart, as the API names them, with their names in words.
export const FORMATS = Object.freeze([
  ["2p", t("format.2p")],
  ["3p", t("format.3p")],
  ["4p", t("format.4p")],
  ["2v2", t("format.2v2")],
]);

// formatName says a format in words ("2p: two players").
export function formatName(f) {
  const found = FORMATS.find(([k]) => k === f);
  return found ? `${found[1]} (${f})` : f;
}

// PROVISIONAL says when a rating is provisional, as the API documents it.
export const PROVISIONAL = t("rating.provisional_when");

// figure writes a rating figure with two decimals and a true minus sign ("−1.25").
export function figure(x) {
  const r = Math.round(x * 100) / 100;
  return `${r < 0 ? "−" : ""}${Math.abs(r).toFixed(2)}`;
}

// signed writes a change with its sign: "+1.25", "−0.40", "±0.00".
export function signed(d) {
  const r = Math.round(d * 100) / 100;
  return r === 0 ? "±0.00" : `${r > 0 ? "+" : "−"}${Math.abs(r).toFixed(2)}`;
}

// profileLink links a player's name to the player's page.
export function profileLink(id, name, attrs = {}) {
  return el("a", { href: `/player/${encodeURIComponent(id)}`, class: "player-link", ...attrs, text: name || id });
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

const when = (x) => whenT(x);

// ratingChart draws the rating (μ − 3σ) after each of a format's rated matches, oldest first:
// one point a match, joined by a line, the start (before the first) marked apart. The SVG is
// an image with a title and a description; the same figures follow it in a table.
export function ratingChart(format, items) {
  const W = 640, H = 220, left = 48, right = 16, top = 16, bottom = 34;
  const id = `chart-${format}`;
  const values = items.map((h) => h.after.rating);
  const start = items.length ? items[0].before.rating : 0;
  const all = [start, ...values];
  let lo = Math.min(...all), hi = Math.max(...all);
  if (hi - lo < 1) {
    lo -= 0.5;
    hi += 0.5;
  }
  const n = items.length;
  const x = (i) => left + ((W - left - right) * i) / Math.max(1, n); // i = 0 is the start
  const y = (v) => top + ((H - top - bottom) * (hi - v)) / (hi - lo);
  const chart = svg("svg", { id, class: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-desc`, "data-format": format });
  const title = svg("title", { id: `${id}-title` });
  title.textContent = tn("chart.title", n, { format: formatName(format) });
  const desc = svg("desc", { id: `${id}-desc` });
  desc.textContent = n
    ? t("chart.desc", { from: figure(start), to: figure(values[n - 1]), hi: figure(Math.max(...values)), lo: figure(Math.min(...values)) })
    : t("chart.none");
  chart.append(title, desc);
  // The frame: the top, middle and bottom of the range, and 0 where it falls inside.
  const ticks = [hi, (hi + lo) / 2, lo];
  if (lo < 0 && hi > 0) ticks.push(0);
  for (const v of ticks) {
    chart.append(svg("line", { x1: left, x2: W - right, y1: y(v).toFixed(1), y2: y(v).toFixed(1), class: v === 0 ? "axis zero" : "axis" }));
    const label = svg("text", { x: left - 6, y: (y(v) + 4).toFixed(1), class: "tick", "text-anchor": "end" });
    label.textContent = figure(v);
    chart.append(label);
  }
  const xlabel = svg("text", { x: (W + left - right) / 2, y: H - 8, class: "tick", "text-anchor": "middle" });
  xlabel.textContent = n ? t("chart.x", { n }) : t("chart.none_short");
  chart.append(xlabel);
  if (!n) return chart;
  const points = [[x(0), y(start)], ...values.map((v, i) => [x(i + 1), y(v)])];
  chart.append(svg("polyline", { class: "rating-line", points: points.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ") }));
  const origin = svg("rect", { class: "start", x: (x(0) - 3).toFixed(1), y: (y(start) - 3).toFixed(1), width: 6, height: 6 });
  const ot = svg("title");
  ot.textContent = t("chart.start", { rating: figure(start) });
  origin.append(ot);
  chart.append(origin);
  items.forEach((h, i) => {
    const dot = svg("circle", {
      cx: x(i + 1).toFixed(1), cy: y(h.after.rating).toFixed(1), r: n > 60 ? 2.5 : 4,
      class: `point ${h.won ? "won" : "lost"}`, "data-match": h.match_id, "data-rating": h.after.rating,
    });
    const tt = svg("title");
    tt.textContent = t("chart.point", { n: i + 1, result: t(h.won ? "chart.won" : "chart.lost"), when: when(h.ended_at), before: figure(h.before.rating), after: figure(h.after.rating), diff: signed(h.after.rating - h.before.rating) });
    dot.append(tt);
    chart.append(dot);
  });
  return chart;
}

// historyTable is a format's rated matches in figures, oldest first, each with its replay.
export function historyTable(format, items) {
  return el("table", { class: "figures history", id: `history-${format}` },
    el("caption", { class: "visually-hidden", text: t("history.caption", { format: formatName(format) }) }),
    el("thead", {}, el("tr", {},
      ...["#", t("history.ended"), t("history.result"), t("history.before"), t("history.after"), t("history.change"), "μ", "σ"].map((h) => el("th", { scope: "col", text: h })),
      el("th", { scope: "col" }, el("span", { class: "visually-hidden", text: t("replay.title") })))),
    el("tbody", {}, ...items.map((h, i) => el("tr", { "data-match": h.match_id },
      el("td", { text: String(i + 1) }),
      el("td", { text: when(h.ended_at) }),
      el("td", { text: t(h.won ? "chart.won" : "chart.lost") }),
      el("td", { class: "num", text: figure(h.before.rating) }),
      el("td", { class: "num after", text: figure(h.after.rating) }),
      el("td", { class: "num", text: signed(h.after.rating - h.before.rating) }),
      el("td", { class: "num", text: figure(h.after.mu) }),
      el("td", { class: "num", text: figure(h.after.sigma) }),
      el("td", {}, el("a", { href: `/replay/${encodeURIComponent(h.match_id)}`, "aria-label": t("history.replay_of", { n: i + 1 }), text: t("me.replay") }))))));
}

// changesList says a finished match's rating changes, seat by seat: the name (linked to the
// player's page), before → after and the signed difference.
export function changesList(changes, seats) {
  return el("ul", { id: "rating-changes", class: "changes" }, ...changes.map((c) => {
    const s = seats.find((x) => x.seat === c.seat);
    const name = s && s.name ? s.name : c.player;
    const d = c.after.rating - c.before.rating;
    return el("li", { "data-seat": c.seat, "data-player": c.player },
      profileLink(c.player, name), `: ${figure(c.before.rating)} → ${figure(c.after.rating)} `,
      el("b", { class: `diff ${d > 0 ? "up" : d < 0 ? "down" : ""}`, text: `(${signed(d)})` }));
  }));
}
