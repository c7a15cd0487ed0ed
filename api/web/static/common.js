// What every page of the client shares: calls to the public API, dominoes drawn in SVG, events
// said in words, and the seat tokens kept in this browser (docs/api-web.md, "The web client").

import { t, tn, has } from "/assets/i18n.js";

export { t, tn, when } from "/assets/i18n.js";

import { el } from "/assets/dom.js";

export { el } from "/assets/dom.js";
export { tileSVG, tileName, isDouble, drawLine } from "/assets/tiles.js";

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
    throw new ApiError({ code: "UNREACHABLE", detail: `the server cannot be reached (${err.message})` }, 0);
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

// seededBadge marks a match whose creator chose the seed, and so can compute every hand
// (docs/api-records.md, "Checking a deal yourself"): whoever joins or watches it should know.
export function seededBadge() {
  return el("span", { class: "seeded", title: t("seeded.title"), text: t("seeded.badge") });
}

// problemText says an API error in the page's language when the client knows its code
// (problem.CODE in the catalogue), else the problem's own English detail.
export function problemText(err) {
  if (err instanceof ApiError) return err.code && has(`problem.${err.code}`) ? t(`problem.${err.code}`) : err.message;
  return String((err && err.message) || err);
}

// showError puts an API error or any other error in a page's alert region.
export function showError(region, err) {
  region.textContent = err ? problemText(err) : "";
  region.hidden = !err;
}

// Seats are counted from 0, as the API, the command line and every error count them
// (docs/api-web.md, "The web client"): seat 0 leads the order of play. A seat with no name is an open seat.

// seatLabel names one seat of a view's or an event's list: its name, or "seat N" when it has
// none (an open seat).
export function seatLabel(s, seat) {
  return s && s.name ? s.name : t("seat.n", { n: seat });
}

// sideName names a side by its seats' names ("Ada & Cy").
export function sideName(seats, side) {
  return seats.filter((s) => s.side === side).map((s) => seatLabel(s, s.seat)).join(" & ") || t("side.n", { n: side });
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
  return players.map((p) => (p.kind === "open" ? t("ev.open_seat", { n: p.seat }) : p.name)).join(", ");
}

// endName says "left" or "right" in the page's language.
export const endName = (end) => t(end === "left" ? "end.left" : "end.right");

// DESCRIBERS says each event type in words: the client's one list of event types, which the
// table's stream listens to as well (EVENT_TYPES). A test checks it against the server's list.
const DESCRIBERS = {
  "match.created": (d) => t("ev.created", { players: playersText(d.players || []), target: d.target }) +
    (d.partnerships ? t("ev.created.partnerships") : "") + (d.seeded ? t("ev.created.seeded") : "") +
    (d.rated ? t("ev.created.rated") : "") + ".",
  "hand.started": (d, seats) => {
    const why = d.lead === "winner" ? t("ev.lead.winner") : t("ev.lead.double");
    const vars = { hand: d.hand, who: seatName(seats, d.leader), why, boneyard: d.boneyard_count, redeals: d.redeals };
    return d.redeals ? tn("ev.hand_started_redeal", d.redeals, vars) : t("ev.hand_started", vars);
  },
  "tile.played": (d, seats, viewer, event) => {
    const tile = event.laid || d.tile; // as it lies in the line, when the caller knows it
    const vars = { who: seatName(seats, d.seat), tile, end: endName(d.end), total: d.total, points: d.points };
    const what = event.lead ? t("ev.leads", vars) : t("ev.plays", vars);
    return `${what} ${d.points > 0 ? t("ev.scores", vars) : t("ev.no_score", vars)}`;
  },
  "tile.drawn": (d, seats, viewer) =>
    d.tile && (viewer === -1 || viewer === d.seat) ? t("ev.draws_tile", { who: seatName(seats, d.seat), tile: d.tile }) : t("ev.draws", { who: seatName(seats, d.seat) }),
  "turn.passed": (d, seats) => t("ev.passes", { who: seatName(seats, d.seat) }),
  "hand.ended": (d, seats) => {
    const how = d.outcome === "domino" ? t("ev.goes_out", { who: seatName(seats, d.seat) }) : t("ev.blocked");
    const pips = (d.pips || []).map((p, s) => `${seatName(seats, s)} ${p}`).join(", ");
    const won = d.winner_side === null || d.winner_side === undefined
      ? t("ev.hand_tie")
      : t("ev.hand_won", { side: sideName(seats, d.winner_side), points: d.points });
    return t("ev.hand_ended", { hand: d.hand, how, pips, won, scores: scoresText(seats, d.scores || []) });
  },
  "match.ended": (d, seats) => tn("ev.match_ended", seats.filter((s) => s.side === d.winner_side).length, { side: sideName(seats, d.winner_side), scores: scoresText(seats, d.scores || []) }),
  "seat.joined": (d, seats) => t("ev.joined", { who: d.name || seatName(seats, d.seat), n: d.seat }),
  "seat.left": (d, seats) => t("ev.left", { who: seatName(seats, d.seat), n: d.seat }),
  "turn.timed_out": (d, seats) => t("ev.timed_out", { who: seatName(seats, d.seat) }),
  "seat.autoplay": (d, seats) => t("ev.autoplay", { who: seatName(seats, d.seat), bot: d.bot || "greedy" }),
  "seat.resumed": (d, seats) => t("ev.resumed", { who: seatName(seats, d.seat) }),
  "match.expired": () => t("ev.expired"),
  "match.cancelled": (d, seats) => {
    const who = (seats.find((x) => x.seat === d.seat) || {}).reserved_for;
    const name = who ? who.name : seatName(seats, d.seat);
    return d.reason === "declined" ? t("ev.cancelled.declined", { who: name })
      : d.reason === "withdrawn" ? t("ev.cancelled.withdrawn", { who: name })
      : t("ev.cancelled.expired");
  },
  "seat.resigned": (d, seats) => t("ev.resigned", { who: seatName(seats, d.seat) }),
};

// EVENT_TYPES is every event type the client knows: an EventSource hands a named event only
// to a listener of that name, so the table listens to each of these.
export const EVENT_TYPES = Object.freeze(Object.keys(DESCRIBERS));

// describe says an event in words, naming seats as the match does. viewer is the seat the
// words are for (a tile drawn by someone else is not named), or -1. A type the client does not
// know yet is said as such rather than dropped.
export function describe(event, seats, viewer = -1) {
  const say = Object.hasOwn(DESCRIBERS, event.type) ? DESCRIBERS[event.type] : null;
  return say ? say(event.data || {}, seats, viewer, event) : t("ev.unknown", { type: event.type });
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
//
// A page left for another is kept whole in the back-forward cache, its streams open with it,
// and Chromium allows six connections to a host: a few pages visited would leave the next
// page's requests waiting for a stream to end. So a stream is parked when its page is hidden
// and opened again, from the last event seen, when the page is shown from the cache.
export function liveStream({ ticket, url, types, onEvent, onState = () => {}, stop = () => false }) {
  let es = null;
  let closed = false;
  let parked = false;
  let opening = 0; // counts open calls, so that one overtaken while it awaits a ticket gives up
  let timer = null;
  let delay = 1000;
  const retry = () => {
    clearTimeout(timer);
    timer = setTimeout(open, delay);
    delay = Math.min(delay * 2, 15000);
  };
  const park = () => {
    parked = true;
    clearTimeout(timer);
    if (es) es.close();
    es = null;
  };
  const resume = () => {
    if (!parked || closed) return;
    parked = false;
    delay = 1000;
    open();
  };
  addEventListener("pagehide", park);
  addEventListener("pageshow", resume);
  async function open() {
    if (closed || parked) return;
    const mine = ++opening;
    let address;
    try {
      address = url(ticket ? await ticket() : "");
    } catch {
      if (closed || parked || mine !== opening) return;
      onState("retrying");
      retry();
      return;
    }
    if (closed || parked || mine !== opening) return;
    es = new EventSource(address);
    for (const t of types) es.addEventListener(t, (msg) => onEvent(t, msg));
    es.onopen = () => {
      delay = 1000;
      onState("live");
    };
    es.onerror = () => {
      es.close();
      es = null;
      if (closed || parked || stop()) return;
      onState("retrying");
      retry();
    };
  }
  open();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      removeEventListener("pagehide", park);
      removeEventListener("pageshow", resume);
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
// words, not only by colour, while the match goes on (ended: it is over, and leads no more).
export function scoreList(list, seats, scores, target, ended = false) {
  const best = Math.max(...scores);
  const leads = (p) => !ended && p === best && p > 0;
  list.replaceChildren(
    ...scores.map((p, side) =>
      el("li", { "data-side": side, class: leads(p) ? "leading" : "" },
        el("span", { class: "who", text: sideName(seats, side) }), " ",
        el("b", { class: "points", text: String(p) }),
        el("span", { class: "muted", text: ` / ${target}` }),
        leads(p) ? el("span", { class: "tag", text: ` ${t("score.leading")}` }) : null),
    ),
  );
}
