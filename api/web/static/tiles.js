// Dominoes drawn in SVG, and the line of them laid out to fit its box (docs/api-web.md, "The web
// client"): a tile's title names it, so it reads the same to a screen reader as it looks.
import { el } from "/assets/dom.js";
import { t } from "/assets/i18n.js";

const SVG = "http://www.w3.org/2000/svg";

// Pip positions in one square half of a tile, in a 100 by 100 box.
const PIPS = {
  0: [],
  1: [[50, 50]],
  2: [[25, 25], [75, 75]],
  3: [[25, 25], [50, 50], [75, 75]],
  4: [[25, 25], [75, 25], [25, 75], [75, 75]],
  5: [[25, 25], [75, 25], [50, 50], [25, 75], [75, 75]],
  6: [[25, 22], [25, 50], [25, 78], [75, 22], [75, 50], [75, 78]],
};

// tileSVG draws a domino: across (the first pip on the left) or upright (the first pip on
// top). Its title names it, so it reads the same to a screen reader as it looks.
export function tileSVG(name, upright = false) {
  const [a, b] = name.split("-").map(Number);
  const w = upright ? 100 : 200;
  const h = upright ? 200 : 100;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", `domino ${upright ? "upright" : "across"}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", tileName(name));
  const title = document.createElementNS(SVG, "title");
  title.textContent = tileName(name);
  svg.append(title);
  const rect = document.createElementNS(SVG, "rect");
  for (const [k, v] of Object.entries({ x: 3, y: 3, width: w - 6, height: h - 6, rx: 12, class: "face" })) rect.setAttribute(k, v);
  svg.append(rect);
  const bar = document.createElementNS(SVG, "line");
  const mid = upright ? { x1: 14, y1: 100, x2: 86, y2: 100 } : { x1: 100, y1: 14, x2: 100, y2: 86 };
  for (const [k, v] of Object.entries(mid)) bar.setAttribute(k, v);
  bar.setAttribute("class", "bar");
  svg.append(bar);
  [a, b].forEach((pips, half) => {
    for (const [x, y] of PIPS[pips] || []) {
      const c = document.createElementNS(SVG, "circle");
      // Across, a half is offset sideways; upright, downwards (and the pattern turned).
      const cx = upright ? y : x + half * 100;
      const cy = upright ? x + half * 100 : y;
      c.setAttribute("cx", cx);
      c.setAttribute("cy", cy);
      c.setAttribute("r", 9);
      c.setAttribute("class", "pip");
      svg.append(c);
    }
  });
  return svg;
}

// tileName says a tile for the ear and the eye alike: "4-4 (double)".
export function tileName(name) {
  return isDouble(name) ? t("tile.double", { tile: name }) : name;
}

// isDouble says whether a tile name is a double such as 5-5.
export function isDouble(name) {
  const [a, b] = name.split("-");
  return a === b;
}

// drawLine fills a container with the line in reading order at any width. The tiles shrink to
// fit the box in one row, down to a size that still shows their pips; a longer line bends like a
// line of dominoes on a table: the next row runs back right to left, its tiles turned so that
// touching halves still match. A screen reader reads the tiles in the line's own order.
export function drawLine(container, line, played = "") {
  container.classList.add("line");
  container.lineTiles = line;
  if (line.length === 0) {
    container.replaceChildren(el("p", { class: "muted", text: t("line.empty") }));
    return;
  }
  layoutLine(container);
  container.dataset.played = played;
}

// The sizes of a tile's short side, in px: the largest drawn, the smallest in one row, and
// the size of a bent line.
const UNIT_MAX = 27;
const UNIT_MIN = 18;
const GAP = 2;

const unitsOf = (x) => (isDouble(x) ? 1 : 2);

// layoutLine lays the container's line out for its width: one row when it fits, else rows
// that turn back at each end of the box.
function layoutLine(container) {
  const line = container.lineTiles || [];
  if (!line.length) return;
  const width = Math.max(0, container.clientWidth - 8);
  const units = line.reduce((n, x) => n + unitsOf(x), 0);
  const one = width > 0 ? Math.floor((width - GAP * (line.length - 1)) / units) : UNIT_MAX;
  const unit = Math.max(UNIT_MIN, Math.min(UNIT_MAX, one));
  const rows = [[]];
  let used = 0;
  for (const [i, x] of line.entries()) {
    const w = unitsOf(x) * unit + GAP;
    if (width > 0 && used + w > width + GAP && rows[rows.length - 1].length) {
      rows.push([]);
      used = 0;
    }
    rows[rows.length - 1].push([i, x]);
    used += w;
  }
  const key = `${unit}:${rows.map((r) => r.length).join(",")}:${line.join(" ")}`;
  if (container.dataset.layout === key) return;
  container.dataset.layout = key;
  const list = el("div", { class: "line-rows", role: "list", "aria-label": t("line.label") },
    ...rows.map((r, n) => el("div", { class: `line-row${n % 2 ? " back" : ""}`, "data-row": n },
      ...r.map(([i, x]) => {
        // A row that runs back shows each tile turned end for end, as it lies on a table.
        const shown = n % 2 && !isDouble(x) ? x.split("-").reverse().join("-") : x;
        const svg = tileSVG(shown, isDouble(x));
        svg.setAttribute("aria-label", tileName(x));
        svg.querySelector("title").textContent = tileName(x);
        return el("span", { class: `line-tile${isDouble(x) ? " double" : ""}`, role: "listitem", "data-tile": x, "data-i": i }, svg);
      }))));
  list.style.setProperty("--unit", `${unit}px`);
  container.replaceChildren(list);
}

// Lines drawn in a box whose width changes (a phone turned, a window resized) are laid out again.
if (typeof ResizeObserver === "function") {
  const watched = new ResizeObserver((entries) => { for (const e of entries) layoutLine(e.target); });
  const observe = () => { for (const c of document.querySelectorAll(".line")) watched.observe(c); };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", observe);
  else observe();
}
