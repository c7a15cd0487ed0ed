// The one tile component (docs/api-web.md, "The web client"): a domino drawn in SVG from its
// pips, used by the line, the hand and the replay, and the line of them laid out to fit its box.
// A tile's title names it, so it reads the same to a screen reader as it looks.
import { el } from "/assets/dom.js";
import { t } from "/assets/i18n.js";

const SVG = "http://www.w3.org/2000/svg";

// Pip positions in one square half of a tile, in a 100 by 100 box.
const PIPS = {
  0: [],
  1: [[50, 50]],
  2: [[27, 27], [73, 73]],
  3: [[25, 25], [50, 50], [75, 75]],
  4: [[27, 27], [73, 27], [27, 73], [73, 73]],
  5: [[25, 25], [75, 25], [50, 50], [25, 75], [75, 75]],
  6: [[27, 22], [27, 50], [27, 78], [73, 22], [73, 50], [73, 78]],
};

// svgOf makes an SVG element with its attributes.
function svgOf(name, attrs) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// tileSVG draws a domino: across (the first pip on the left) or upright (the first pip on
// top). Its title names it, so it reads the same to a screen reader as it looks. Its size is
// the style sheet's: the class says which way it lies.
export function tileSVG(name, upright = false) {
  const [a, b] = name.split("-").map(Number);
  const w = upright ? 100 : 200;
  const h = upright ? 200 : 100;
  const svg = svgOf("svg", { viewBox: `0 0 ${w} ${h}`, class: `domino ${upright ? "upright" : "across"}`, role: "img", "aria-label": tileName(name) });
  const title = svgOf("title", {});
  title.textContent = tileName(name);
  svg.append(title, svgOf("rect", { x: 4, y: 4, width: w - 8, height: h - 8, rx: 14, class: "face" }));
  svg.append(svgOf("line", upright ? { x1: 16, y1: 100, x2: 84, y2: 100, class: "bar" } : { x1: 100, y1: 16, x2: 100, y2: 84, class: "bar" }));
  [a, b].forEach((pips, half) => {
    for (const [x, y] of PIPS[pips] || []) {
      // Across, a half is offset sideways; upright, downwards (and the pattern turned).
      const cx = upright ? y : x + half * 100;
      const cy = upright ? x + half * 100 : y;
      svg.append(svgOf("circle", { cx, cy, r: 10, class: "pip" }));
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

// drawLine fills a container with the line in reading order at any width: rows from the top,
// bending like a line of dominoes on a table (the next row runs back right to left, its tiles
// turned so that touching halves still match), doubles crosswise. played names the end the
// latest tile went to, which is marked. A screen reader reads the tiles in the line's order.
export function drawLine(container, line, played = "") {
  container.classList.add("line");
  container.lineTiles = line;
  container.dataset.played = played;
  if (line.length === 0) {
    delete container.dataset.layout;
    container.replaceChildren(el("p", { class: "muted", text: t("line.empty") }));
    return;
  }
  layoutLine(container);
}

// The tile's short side, in px: never more than UNIT_MAX, and never less than the box's
// share, between UNIT_SMALL (a phone) and UNIT_LARGE (a box of LARGE_BOX px or more), so that
// the pips read at a glance at any width.
const UNIT_MAX = 44;
const UNIT_SMALL = 24;
const UNIT_LARGE = 32;
const LARGE_BOX = 512;
const GAP = 3;

const unitsOf = (x) => (isDouble(x) ? 1 : 2);

// unitFor is the size of a tile's short side for a line of units in a box width px wide: as
// large as one row allows, within the bounds above.
export function unitFor(width, units, count) {
  const least = width >= LARGE_BOX ? UNIT_LARGE : width <= LARGE_BOX / 2 ? UNIT_SMALL
    : Math.round(UNIT_SMALL + ((UNIT_LARGE - UNIT_SMALL) * (width - LARGE_BOX / 2)) / (LARGE_BOX / 2));
  const one = width > 0 ? Math.floor((width - GAP * (count - 1)) / units) : UNIT_MAX;
  return Math.max(least, Math.min(UNIT_MAX, one));
}

// rowsFor breaks the line into rows of at most width px, each tile in order.
function rowsFor(line, unit, width) {
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
  return rows;
}

// lineTile is one tile of the line, as it lies in row n: a row that runs back shows each tile
// turned end for end, as it lies on a table; its name stays the line's own.
function lineTile(i, x, n, last) {
  const shown = n % 2 && !isDouble(x) ? x.split("-").reverse().join("-") : x;
  const svg = tileSVG(shown, isDouble(x));
  svg.setAttribute("aria-label", tileName(x));
  svg.querySelector("title").textContent = tileName(x);
  const cls = `line-tile${isDouble(x) ? " double" : ""}${i === last ? " last" : ""}`;
  return el("span", { class: cls, role: "listitem", "data-tile": x, "data-i": i }, svg);
}

// layoutLine lays the container's line out for its width: one row when it fits, else rows
// that turn back at each end of the box.
function layoutLine(container) {
  const line = container.lineTiles || [];
  if (!line.length) return;
  const width = Math.max(0, container.clientWidth - 8);
  const units = line.reduce((n, x) => n + unitsOf(x), 0);
  const unit = unitFor(width, units, line.length);
  const rows = rowsFor(line, unit, width);
  const played = container.dataset.played;
  const last = played === "left" ? 0 : played === "right" ? line.length - 1 : -1;
  const key = `${unit}:${rows.map((r) => r.length).join(",")}:${last}:${line.join(" ")}`;
  if (container.dataset.layout === key) return;
  container.dataset.layout = key;
  const list = el("div", { class: "line-rows", role: "list", "aria-label": t("line.label") },
    ...rows.map((r, n) => el("div", { class: `line-row${n % 2 ? " back" : ""}`, "data-row": n },
      ...r.map(([i, x]) => lineTile(i, x, n, last)))));
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
