// What every page of the client shares: calls to the public API, dominoes drawn in SVG, events
// said in words, and the seat tokens kept in this browser (docs/api.md, "The web client").

const SVG = "http://www.w3.org/2000/svg";

// ApiError is a problem answered by the API; its message is the problem's detail.
export class ApiError extends Error {
  constructor(problem, status) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || "";
  }
}

// api calls the API on this origin and answers the JSON body, or throws an ApiError.
export async function api(path, { method = "GET", body, token, headers = {} } = {}) {
  const h = { Accept: "application/json", ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  if (body !== undefined) h["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError({ detail: `the server cannot be reached (${err.message})` }, 0);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(data || {}, res.status);
  return data;
}

// matchId is the id in a page path such as /play/{id} or /replay/{id}.
export function matchId() {
  return decodeURIComponent(location.pathname.split("/")[2] || "");
}

// el makes an element with attributes and children; strings become text, never HTML.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(typeof c === "string" || typeof c === "number" ? String(c) : c);
  }
  return node;
}

// seededBadge marks a match whose creator chose the seed, and so can compute every hand
// (docs/api.md, "Checking a deal yourself"): whoever joins or watches it should know.
export function seededBadge() {
  return el("span", { class: "seeded", title: "The creator chose the seed, so they can compute every hand, yours too.",
    text: "seeded: the creator chose the deal" });
}

// showError puts an API error (its detail) or any other error in a page's alert region.
export function showError(region, err) {
  region.textContent = err ? (err instanceof ApiError ? err.message : String(err.message || err)) : "";
  region.hidden = !err;
}

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
  svg.setAttribute("aria-label", name);
  const title = document.createElementNS(SVG, "title");
  title.textContent = name;
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

// isDouble says whether a tile name is a double such as 5-5.
export function isDouble(name) {
  const [a, b] = name.split("-");
  return a === b;
}

// drawLine fills a container with the line left to right, doubles crosswise.
export function drawLine(container, line) {
  container.replaceChildren(
    ...line.map((t) => el("span", { class: "line-tile", "data-tile": t }, tileSVG(t, isDouble(t)))),
  );
  if (line.length === 0) container.append(el("p", { class: "muted", text: "No tile on the table yet." }));
}

// Seats are counted from 0, as the API, the command line and every error count them
// (docs/api.md): seat 0 leads the order of play. A seat with no name is an open seat.

// seatLabel names one seat of a view's or an event's list: its name, or "seat N" when it has
// none (an open seat).
export function seatLabel(s, seat) {
  return s && s.name ? s.name : `seat ${seat}`;
}

// sideName names a side by its seats' names ("Ada & Cy").
export function sideName(seats, side) {
  return seats.filter((s) => s.side === side).map((s) => seatLabel(s, s.seat)).join(" & ") || `side ${side}`;
}

// seatName names a seat of the match; an unknown or open seat is called by its number.
function seatName(seats, seat) {
  return seatLabel(seats.find((x) => x.seat === seat), seat);
}

function scoresText(seats, scores) {
  return scores.map((p, side) => `${sideName(seats, side)} ${p}`).join(", ");
}

// playersText names match.created's players, an open seat as such ("Ann, an open seat (seat 1)").
function playersText(players) {
  return players.map((p) => (p.kind === "open" ? `an open seat (seat ${p.seat})` : p.name)).join(", ");
}

// DESCRIBERS says each event type in words: the client's one list of event types, which the
// table's stream listens to as well (EVENT_TYPES). A test checks it against the server's list.
const DESCRIBERS = {
  "match.created": (d) =>
    `Match created for ${playersText(d.players || [])}: first to ${d.target}` +
    `${d.partnerships ? ", in partnerships" : ""}${d.seeded ? ", seeded" : ""}${d.rated ? ", rated" : ""}.`,
  "hand.started": (d, seats) => {
    const why = d.lead === "winner" ? "the last hand's winner leads" : "the highest double leads";
    const redeal = d.redeals ? ` after ${d.redeals} redeal${d.redeals > 1 ? "s" : ""}` : "";
    return `Hand ${d.hand} dealt${redeal}: ${seatName(seats, d.leader)} to lead (${why}); ${d.boneyard_count} in the boneyard.`;
  },
  "tile.played": (d, seats, viewer, event) => {
    const score = d.points > 0 ? `scores ${d.points}` : "no score";
    const tile = event.laid || d.tile; // as it lies in the line, when the caller knows it
    const what = event.lead ? `leads ${tile}` : `plays ${tile} on the ${d.end}`;
    return `${seatName(seats, d.seat)} ${what}: ends count ${d.total}, ${score}.`;
  },
  "tile.drawn": (d, seats, viewer) =>
    d.tile && (viewer === -1 || viewer === d.seat) ? `${seatName(seats, d.seat)} draws ${d.tile}.` : `${seatName(seats, d.seat)} draws a tile.`,
  "turn.passed": (d, seats) => `${seatName(seats, d.seat)} passes.`,
  "hand.ended": (d, seats) => {
    const how = d.outcome === "domino" ? `${seatName(seats, d.seat)} goes out` : "the hand is blocked";
    const pips = (d.pips || []).map((p, s) => `${seatName(seats, s)} ${p}`).join(", ");
    const won = d.winner_side === null || d.winner_side === undefined
      ? "a tie, no one scores"
      : `${sideName(seats, d.winner_side)} score${d.points === 1 ? "s" : ""} ${d.points}`;
    return `Hand ${d.hand} ends: ${how}; pips left ${pips}; ${won}. Scores: ${scoresText(seats, d.scores || [])}.`;
  },
  "match.ended": (d, seats) =>
    `Match over: ${sideName(seats, d.winner_side)} win${seats.filter((s) => s.side === d.winner_side).length > 1 ? "" : "s"}, ` +
    `${scoresText(seats, d.scores || [])}. The seed is revealed.`,
  "seat.joined": (d, seats) => `${d.name || seatName(seats, d.seat)} takes seat ${d.seat}.`,
  "seat.left": (d, seats) => `${seatName(seats, d.seat)} leaves; seat ${d.seat} is open again.`,
  "turn.timed_out": (d, seats) => `${seatName(seats, d.seat)}'s time is up: the greedy bot plays the turn.`,
  "seat.autoplay": (d, seats) =>
    `${seatName(seats, d.seat)} timed out too often: the ${d.bot || "greedy"} bot plays the seat until they resume.`,
  "seat.resumed": (d, seats) => `${seatName(seats, d.seat)} takes the seat back from the bot.`,
  "match.expired": () => "The match expired: its open seats were not taken in time.",
  "match.cancelled": (d, seats) => {
    const who = (seats.find((x) => x.seat === d.seat) || {}).reserved_for;
    const name = who ? who.name : seatName(seats, d.seat);
    return d.reason === "declined" ? `The match is cancelled: ${name} declined the seat kept for them.`
      : d.reason === "withdrawn" ? `The match is cancelled: ${name} withdrew it.`
      : "The match is cancelled: the offer was not accepted in time.";
  },
  "seat.resigned": (d, seats) => `${seatName(seats, d.seat)} resigns.`,
};

// EVENT_TYPES is every event type the client knows: an EventSource hands a named event only
// to a listener of that name, so the table listens to each of these.
export const EVENT_TYPES = Object.freeze(Object.keys(DESCRIBERS));

// describe says an event in words, naming seats as the match does. viewer is the seat the
// words are for (a tile drawn by someone else is not named), or -1. A type the client does not
// know yet is said as such rather than dropped.
export function describe(event, seats, viewer = -1) {
  const say = Object.hasOwn(DESCRIBERS, event.type) ? DESCRIBERS[event.type] : null;
  return say ? say(event.data || {}, seats, viewer, event) : `An event this page does not know: ${event.type}.`;
}

// markLeads flags each tile.played that leads a hand, so that describe can say "leads".
export function markLeads(events) {
  let fresh = false;
  for (const e of events) {
    if (e.type === "hand.started") fresh = true;
    else if (e.type === "tile.played") {
      e.lead = fresh;
      fresh = false;
    }
  }
  return events;
}

// liveStream follows a stream of server-sent events. ticket (optional) answers a single-use
// ticket for each connection, and url(ticket) the address to open, so that no long-lived secret
// is ever in an address (a proxy's access log keeps addresses). EventSource would retry the same
// address, whose ticket is spent; so a connection that fails is closed, and opened again after
// a pause with a new ticket and an address that url builds anew (from the last event seen).
// stop() says, on a failure, that nothing more is to come. It answers {close}.
export function liveStream({ ticket, url, types, onEvent, onState = () => {}, stop = () => false }) {
  let es = null;
  let closed = false;
  let timer = null;
  let delay = 1000;
  const retry = () => {
    clearTimeout(timer);
    timer = setTimeout(open, delay);
    delay = Math.min(delay * 2, 15000);
  };
  async function open() {
    if (closed) return;
    let address;
    try {
      address = url(ticket ? await ticket() : "");
    } catch {
      onState("retrying");
      retry();
      return;
    }
    if (closed) return;
    es = new EventSource(address);
    for (const t of types) es.addEventListener(t, (msg) => onEvent(t, msg));
    es.onopen = () => {
      delay = 1000;
      onState("live");
    };
    es.onerror = () => {
      es.close();
      es = null;
      if (closed || stop()) return;
      onState("retrying");
      retry();
    };
  }
  open();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      if (es) es.close();
    },
  };
}

// Tokens: one seat token per match, kept in this browser's localStorage and sent only in the
// Authorization header. A stream, which EventSource cannot send headers to, is opened with a
// single-use ticket that the token buys (POST /matches/{id}/tickets), never with the token.
const tokenKey = (id) => `allfives:seat:${id}`;

// savedSeat is the seat and token this browser holds for a match, or null.
export function savedSeat(id) {
  try {
    const v = JSON.parse(localStorage.getItem(tokenKey(id)) || "null");
    return v && typeof v.token === "string" ? v : null;
  } catch {
    return null;
  }
}

// saveSeat keeps a match's seat token; forgetSeat drops it.
export function saveSeat(id, seat, token) {
  localStorage.setItem(tokenKey(id), JSON.stringify({ seat, token }));
}

export function forgetSeat(id) {
  localStorage.removeItem(tokenKey(id));
}

// scoreList fills a list with each side's score against the target; the leader is marked in
// words, not only by colour.
export function scoreList(list, seats, scores, target) {
  const best = Math.max(...scores);
  list.replaceChildren(
    ...scores.map((p, side) =>
      el("li", { "data-side": side, class: p === best && p > 0 ? "leading" : "" },
        el("span", { class: "who", text: sideName(seats, side) }), " ",
        el("b", { class: "points", text: String(p) }),
        el("span", { class: "muted", text: ` / ${target}` }),
        p === best && p > 0 ? el("span", { class: "tag", text: " (leading)" }) : null),
    ),
  );
}
