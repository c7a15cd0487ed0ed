// The table: your hand, the legal moves to click, and the match live over the stream. The
// page shows only what the API shows this seat (or a spectator), so it can hold no tile of
// another hand while the match is live.
import {
  api, matchId, el, showError, tileSVG, drawLine, describe, markLeads, scoreList, sideName, seatLabel,
  savedSeat, saveSeat, forgetSeat, EVENT_TYPES, liveStream, t, tn, endName, tileName,
} from "/assets/common.js";
import { waitingText, reservedSeat, decline, withdraw, resignBox } from "/assets/consent.js";
import { renderJoin, join } from "/assets/join.js";
import { me, listen, announce } from "/assets/player.js";
import { locale } from "/assets/i18n.js";
import { profileLink } from "/assets/ratings.js";
import { endScreen } from "/assets/endscreen.js";

const id = matchId();
const base = `/api/v1/matches/${encodeURIComponent(id)}`;
const $ = (sel) => document.getElementById(sel);
const main = $("table");
const errorBox = $("error");
// The events after which nothing more happens; the stream listens to every type (EVENT_TYPES).
const OVER = ["match.ended", "match.expired", "match.cancelled"];
const LOG_SIZE = 12;

let seat = savedSeat(id); // {seat, token} or null
const player = me(); // the lasting player this browser is signed in as, or null
let bound = false; // the player holds a seat of this match, so its key stands for the seat
let keyRefused = false; // the key was refused here (rotated elsewhere): watch as a spectator
let challenged = null; // the seat of this waiting match reserved for the player, or null
let view = null;
let log = []; // the last events, in seq order
let stream = null;
let refreshing = null;
let choosing = null; // the tile whose end is being asked

// token is what stands for this browser's seat: the seat's own token, else the player's key
// where the player holds a seat.
const token = () => (leaving ? "" : seat ? seat.token : bound ? player.key : "");
let leaving = false; // the seat is being left
const over = (v) => v.status === "finished" || v.status === "expired" || v.status === "cancelled"; // nothing more will happen
// The end screen: the result from this seat's side, rating changes, and the rematch.
const ending = endScreen({ id, base, token: () => token(), load: () => load(), player, errorBox });

// load reads the match as this seat (or a spectator) sees it and draws it.
async function load() {
  try {
    let v = await api(base, { token: token() });
    if (!v.you && !seat && player && !keyRefused) {
      // A seat bound to the player says so in the view; its key then reads the seat's view.
      if (v.seats.some((s) => s.player === player.id)) {
        bound = true;
        v = await api(base, { token: player.key });
      } else {
        // A seat kept for the player says so (reserved_for): a challenge to it.
        challenged = reservedSeat(v, player);
      }
    }
    render(v);
  } catch (err) {
    if (err.status === 401 && seat) {
      forgetSeat(id);
      seat = null;
      showError(errorBox, new Error(t("play.token_refused")));
      return load();
    }
    if (err.status === 401 && bound) {
      bound = false;
      keyRefused = true;
      showError(errorBox, new Error(t("play.key_refused")));
      return load();
    }
    showError(errorBox, err);
  }
}

// accept takes the seat a challenge keeps for the player, with its key: no name, no invite.
async function accept() {
  try {
    const res = await api(`${base}/seats/${challenged}/join`, { method: "POST", body: {}, token: player.key });
    saveSeat(id, res.seat, res.token);
    seat = { seat: res.seat, token: res.token };
    challenged = null;
    showError(errorBox, null);
    await load();
    if (view) follow(log.length ? log[log.length - 1].seq : Math.max(0, view.version - LOG_SIZE));
  } catch (err) {
    showError(errorBox, err);
  }
}

// refuseChallenge declines the seat a challenge keeps for the player: the match is cancelled.
async function refuseChallenge() {
  try {
    render(await decline(id, challenged, player.key));
    challenged = null;
    showError(errorBox, null);
  } catch (err) {
    showError(errorBox, err);
  }
}

// callOff withdraws a waiting match this seat holds: a challenge or an offer taken back.
async function callOff() {
  try {
    render(await withdraw(id, token()));
    showError(errorBox, null);
  } catch (err) {
    showError(errorBox, err);
  }
}

// refresh reloads the view once after a burst of streamed events.
function refresh() {
  if (refreshing) return;
  refreshing = setTimeout(async () => {
    refreshing = null;
    await load();
  }, 30);
}

function render(v) {
  // Answers can arrive out of order (a refresh sent before a move's answer, read after it):
  // never draw a view older than the one shown to the same viewer.
  const sameViewer = view && (view.you ? view.you.seat : -1) === (v.you ? v.you.seat : -1);
  if (sameViewer && v.version < view.version) return;
  view = v;
  const h = v.hand;
  const me = v.you ? v.you.seat : -1;
  const live = v.status === "in_progress";
  const mine = live && h && h.number > 0 && h.turn === me;
  main.dataset.version = String(v.version);
  main.dataset.status = v.status;
  main.dataset.myTurn = mine ? "1" : "0";
  $("seeded").hidden = !v.seeded; // the creator can compute every hand: say so to all who sit or watch
  $("rated").hidden = !v.rated;
  document.title = `${mine ? `${t("play.your_turn")} · ` : ""}${v.seats.map((s) => seatLabel(s, s.seat)).join(" v ")} · ${t("site.name")}`;
  const clock = live && h && v.seats[h.turn] && v.seats[h.turn].deadline
    ? ` ${t("play.clock", { time: new Date(v.seats[h.turn].deadline).toLocaleTimeString(locale) })}` : "";
  // A seat kept for someone (reserved_for) waits for that one's answer, not for anyone.
  $("turn").textContent = v.status === "waiting" ? waitingText(v)
    : v.status === "expired" ? t("play.expired")
    : v.status === "cancelled" ? cancelledText(v)
    : !live ? t("play.is_over")
    : !h || h.number === 0 ? t("play.wait_deal")
    : (mine ? t("play.your_turn") : t("play.to_move", { who: seatLabel(v.seats[h.turn], h.turn) })) + clock;
  scoreList($("scores"), v.seats, v.scores, v.target);
  $("seats").replaceChildren(...v.seats.map((s) => {
    const toMove = live && h && h.turn === s.seat;
    const kind = s.kind === "bot" ? t("kind.bot", { bot: s.bot }) : s.kind === "open" ? (s.reserved_for ? t("kind.kept", { who: s.reserved_for.name }) : t("kind.open"))
      : s.resigned ? t("kind.resigned") : s.autoplay ? t("kind.autoplay") : t("kind.human");
    // A seat bound to a lasting player (or a rated match's bot) links to the player's page.
    const pid = s.player || (v.rated && s.kind === "bot" && s.bot ? `bot-${s.bot}` : ""); // the bots are players bot-{strategy}
    const who = pid ? profileLink(pid, seatLabel(s, s.seat)) : seatLabel(s, s.seat);
    return el("li", { class: toMove ? "to-move" : "", "data-seat": s.seat },
      who, `${s.seat === me ? ` ${t("you_tag")}` : ""}: ${tn("tiles", s.tiles)}`,
      el("span", { class: "muted", text: ` · ${kind}${v.partnerships ? `, ${t("side.n", { n: s.side })}` : ""}` }),
      toMove ? el("span", { class: "tag", text: ` ▶ ${t("to_move")}` }) : null);
  }));
  drawLine($("line"), h ? h.line : [], lastEnd());
  $("ends").textContent = endsText(h);
  $("boneyard").textContent = h ? tn("boneyard", h.boneyard) : "";
  renderSeat(v, mine);
  ending.render(v);
  renderLog();
}

function renderSeat(v, mine) {
  const offer = !v.you && challenged !== null && v.status === "waiting" && (v.seats[challenged] || {}).kind === "open";
  $("challenge-box").hidden = !offer;
  if (offer) {
    const from = v.seats.filter((s) => s.kind !== "open").map((s) => seatLabel(s, s.seat)).join(", ");
    $("challenge-text").textContent = t("play.challenged", { from: from || t("rematch.someone"), name: player.name, n: challenged });
  }
  if (offer) $("join-box").hidden = true;
  else renderJoin(v, player && !keyRefused ? player : null);
  $("seat-form-box").hidden = !!v.you || over(v) || offer; // once over, there is no seat to take
  $("seat-box").hidden = !v.you;
  if (!v.you) return;
  const s = v.seats[v.you.seat];
  $("seat-who").textContent = t(!seat && bound ? "play.you_are_key" : "play.you_are", { name: s.name, n: s.seat });
  $("forget").hidden = !seat;
  // A seat may be left only while the match waits; a match bound to players (a challenge, a
  // rematch) is withdrawn instead, which tells the one it waits for.
  const waiting = v.status === "waiting";
  $("withdraw").hidden = !waiting;
  $("leave").hidden = !waiting || v.seats.some((x) => x.reserved_for);
  $("resign").hidden = !(v.status === "in_progress" && !s.resigned);
  if ($("resign").hidden) $("resign-confirm").hidden = true;
  $("resign-question").textContent = v.seats.map((x) => x.side).filter((x, i, a) => a.indexOf(x) === i).length > 2 ? t("play.resign_q_many") : t("play.resign_q_two");
  $("resume").hidden = !(s.autoplay && v.status === "in_progress"); // after too many timeouts
  const moves = mine ? v.legal_moves || [] : [];
  // The hand is drawn again only when it changed, so that a refresh bringing the same view
  // never swaps a button from under a pointer or the keyboard focus.
  const key = JSON.stringify([v.you.tiles, moves, mine]);
  const hand = $("hand");
  if (hand.dataset.key !== key || hand.querySelector("button:disabled.legal")) {
    const hadFocus = hand.contains(document.activeElement) || document.activeElement === document.body;
    hand.replaceChildren(...v.you.tiles.map((t) => tileButton(t, moves.filter((m) => m.action === "play" && m.tile === t), mine)));
    hand.dataset.key = key;
    // A keyboard player whose tile went into the line goes on from the hand, not the page top.
    const first = hand.querySelector("button.legal");
    if (hadFocus && first && document.activeElement === document.body) first.focus({ preventScroll: true });
  }
  for (const action of ["draw", "pass"]) {
    $(action).hidden = !moves.some((m) => m.action === action);
    $(action).disabled = false;
  }
  if (choosing && !moves.some((m) => m.tile === choosing)) closeChoice();
}

// tileButton is one tile of the hand: playable when it has plays, with the points each would
// score written on it (the border and the lift say "playable" as well as the colour).
function tileButton(x, plays, mine) {
  const pts = (m) => (m.points > 0 ? `+${m.points}` : "+0");
  const name = tileName(x);
  let badge = "";
  let label = t("tile.not_playable", { tile: name });
  if (plays.length === 1) {
    badge = pts(plays[0]);
    label = t("tile.play_on", { tile: name, end: endName(plays[0].end), points: plays[0].points });
  } else if (plays.length > 1) {
    const [l, r] = ["left", "right"].map((e) => plays.find((m) => m.end === e));
    badge = `${t("end.l")}${pts(l)} ${t("end.r")}${pts(r)}`;
    label = t("tile.play_either", { tile: name, left: l.points, right: r.points });
  } else if (!mine) {
    label = name;
  }
  const t0 = x;
  // The points written on the tile are part of its name too (WCAG 2.5.3, label in name).
  if (plays.length) label = `${badge}: ${label}`;
  return el("button", {
    type: "button", class: `tile${plays.length ? " legal" : ""}`, "data-tile": t0, disabled: plays.length === 0,
    "aria-label": label, title: label, onclick: () => choose(t0, plays),
  }, handTile(t0), el("span", { class: "badge", "aria-hidden": "true", text: plays.length ? badge : mine ? "—" : "" }));
}

// handTile is a tile drawn on its button: the button's name says the tile and its plays, so the
// drawing itself is hidden from screen readers (its name would be said twice).
function handTile(x) {
  const svg = tileSVG(x, true);
  svg.setAttribute("aria-hidden", "true");
  svg.removeAttribute("role");
  svg.removeAttribute("aria-label");
  svg.querySelector("title").remove();
  return svg;
}

// choose plays a tile that fits one end, and asks which end for a tile that fits both.
function choose(x, plays) {
  if (plays.length === 1) return move({ action: "play", tile: x, end: plays[0].end });
  choosing = x;
  const box = $("end-choice");
  $("end-question").textContent = t("tile.fits_both", { tile: tileName(x) });
  for (const b of box.querySelectorAll("button[data-end]")) {
    const m = plays.find((p) => p.end === b.dataset.end);
    b.textContent = t("tile.on_end", { end: endName(m.end), points: m.points });
    b.onclick = () => {
      closeChoice();
      move({ action: "play", tile: x, end: m.end });
    };
  }
  box.hidden = false;
  box.querySelector("button[data-end]").focus();
}

function closeChoice() {
  choosing = null;
  $("end-choice").hidden = true;
}

// move sends a move on the version this page shows; the answer carries the events it caused
// (the bots' replies included) and the view after them.
async function move(body) {
  if (main.dataset.busy === "1") return;
  main.dataset.busy = "1";
  for (const b of document.querySelectorAll("#hand button, #draw, #pass")) b.disabled = true; // render enables them again
  try {
    const res = await api(`${base}/moves`, { method: "POST", body, token: token(), headers: { "If-Match": String(view.version) } });
    showError(errorBox, null);
    addEvents(res.events);
    render(res.match);
  } catch (err) {
    showError(errorBox, err);
    await load();
  } finally {
    main.dataset.busy = "0";
  }
}

function addEvents(events) {
  for (const e of events) {
    if (log.some((x) => x.seq === e.seq)) continue;
    log.push(e);
  }
  log.sort((a, b) => a.seq - b.seq);
  markLeads(log);
  if (log.length > LOG_SIZE) log = log.slice(-LOG_SIZE);
}

function renderLog() {
  if (!view) return;
  const me = view.you ? view.you.seat : -1;
  $("log").replaceChildren(...log.slice().reverse().map((e) => el("li", { value: e.seq }, describe(e, view.seats, me))));
  // A screen reader hears each new event once, not the whole list again: every event since
  // the last one said (a move's answer may bring the opponents' replies with it), except the
  // seat's own plays (an event with a total), which it made itself.
  const newest = log[log.length - 1];
  const box = $("announce");
  if (newest && box.dataset.seq !== String(newest.seq)) {
    const after = Number(box.dataset.seq || newest.seq - 1);
    const fresh = log.filter((e) => e.seq > after && !(e.data && e.data.seat === me && e.data.total !== undefined));
    box.dataset.seq = String(newest.seq);
    if (fresh.length) box.textContent = fresh.map((e) => describe(e, view.seats, me)).join(" ");
  }
}

// cancelledText says why a match never started.
function cancelledText(v) {
  const c = v.cancelled || {};
  const s = c.seat === undefined ? null : v.seats[c.seat];
  const who = s ? (s.reserved_for ? s.reserved_for.name : seatLabel(s, s.seat)) : "";
  return c.reason === "declined" ? t("play.cancel.declined", { who })
    : c.reason === "withdrawn" ? t("play.cancel.withdrawn", { who })
    : c.reason === "offer_expired" ? t("play.cancel.expired") : t("play.cancelled");
}

// endsText says the open ends and what they count.
function endsText(h) {
  if (!(h && h.left)) return "";
  const end = (e) => (e.double ? t("ends.double", { pip: e.pip }) : String(e.pip));
  return t("ends.count", { left: end(h.left), right: end(h.right), total: h.total });
}

// lastEnd is the end the latest tile went to, so the line shows that end.
function lastEnd() {
  const last = log.length ? log[log.length - 1] : null;
  return last && last.data && last.data.end && last.data.tile ? last.data.end : "";
}

// ticket buys a single-use ticket to this match's stream as the seat. A server without tickets
// (one with no players: the route is unknown, not the match) is followed as a spectator does,
// and the seat's own view read after each event as always: the token never goes in an address.
let noTickets = false;
async function ticket(credential) {
  try {
    return (await api(`${base}/tickets`, { method: "POST", token: credential })).ticket;
  } catch (err) {
    if (err.status === 401) {
      // The credential no longer holds the seat (left, rotated): go on as a spectator, and
      // read the match again, which says so.
      refresh();
      return "";
    }
    if (err.status !== 404 || err.code !== "NOT_FOUND") throw err;
    noTickets = true;
    return "";
  }
}

// follow opens the stream after seq. A seat's stream is opened with a single-use ticket that
// the seat's token (or key) buys, never with the token in the address; each reconnection buys
// a new ticket and goes on after the last event seen.
function follow(after) {
  if (stream) stream.close();
  const credential = token();
  const onEvent = (type, msg) => {
    const e = JSON.parse(msg.data);
    addEvents([e]);
    renderLog();
    if (OVER.includes(e.type)) {
      stream.close();
      $("live").textContent = t("play.live_over");
    }
    if (!view || e.seq > view.version) refresh();
  };
  stream = liveStream({
    ticket: credential && !noTickets ? () => ticket(credential) : null,
    url: (ticket) => {
      const last = log.length ? log[log.length - 1].seq : 0;
      const q = new URLSearchParams({ after: String(Math.max(after, last)) });
      if (ticket) q.set("ticket", ticket);
      return `${base}/stream?${q}`;
    },
    types: EVENT_TYPES,
    onEvent,
    onState: (st) => { $("live").textContent = st === "live" ? t("play.live") : t("play.reconnecting"); },
    stop: () => Boolean(view && over(view)),
  });
}

// notify tells the player, over its stream, what happens in its other matches. A rematch of
// this match reads it again, so that the end screen offers to go to it; the match's own
// stream brings everything else of this match.
function notify() {
  if (!player) return;
  listen((type, data) => {
    if (type === "rematch" && data.match === id) load();
    else if (type !== "snapshot") announce(type, data, id);
  });
}

// leave gives the seat back while the match waits: it opens again, and the token stops working.
// While the answer is on its way, the page reads as a spectator: the stream may bring seat.left
// first, and a read with the token it ends would be refused.
async function leave() {
  const credential = token();
  leaving = true;
  try {
    await api(`${base}/seats/${view.you.seat}/leave`, { method: "POST", token: credential });
    forgetSeat(id);
    seat = null;
    bound = false; // the key gave the binding up with the seat
    showError(errorBox, null);
  } catch (err) {
    showError(errorBox, err);
  } finally {
    leaving = false;
  }
  await load();
  if (view) follow(view.version);
}

// resume takes the seat back from the bot that plays it after it timed out too often.
async function resume() {
  try {
    render(await api(`${base}/seats/${view.you.seat}/resume`, { method: "POST", token: token() }));
    showError(errorBox, null);
  } catch (err) {
    showError(errorBox, err);
  }
}

async function takeSeat(ev) {
  ev.preventDefault();
  const input = $("token-input");
  const typed = input.value.trim();
  input.value = "";
  try {
    const v = await api(base, { token: typed });
    if (!v.you) throw new Error(t("play.not_a_seat"));
    seat = { seat: v.you.seat, token: typed };
    saveSeat(id, v.you.seat, typed);
    showError(errorBox, null);
    render(v);
    if (!over(v)) follow(v.version);
  } catch (err) {
    showError(errorBox, err);
  }
}

async function start() {
  $("seat-form").addEventListener("submit", takeSeat);
  $("join-form").addEventListener("submit", (ev) => join(ev, id, async (res) => {
    seat = { seat: res.seat, token: res.token };
    challenged = null;
    await load();
    // From the last event logged, not the view's version: the spectator's stream may not have
    // brought the join's own events yet, and closing it would lose them.
    if (view) follow(log.length ? log[log.length - 1].seq : Math.max(0, view.version - LOG_SIZE));
  }, player && !keyRefused ? player.key : ""));
  $("forget").addEventListener("click", () => {
    forgetSeat(id);
    seat = null;
    load().then(() => view && !over(view) && follow(view.version));
  });
  $("leave").addEventListener("click", leave);
  $("accept").addEventListener("click", accept);
  $("decline").addEventListener("click", refuseChallenge);
  $("withdraw").addEventListener("click", callOff);
  resignBox(base, token, (v) => { render(v); }, errorBox);
  $("resume").addEventListener("click", resume);
  $("draw").addEventListener("click", () => move({ action: "draw" }));
  $("pass").addEventListener("click", () => move({ action: "pass" }));
  $("end-cancel").addEventListener("click", closeChoice);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && choosing) closeChoice(); });
  await load();
  main.dataset.busy = "0";
  notify();
  if (view && over(view)) {
    const res = await api(`${base}/events?after=${Math.max(0, view.version - LOG_SIZE)}`).catch(() => null);
    if (res) addEvents(res.events);
    renderLog();
    return;
  }
  if (view) follow(Math.max(0, view.version - LOG_SIZE));
}

start();
