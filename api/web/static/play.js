// The table: your hand, the legal moves to click, and the match live over the stream. The
// page shows only what the API shows this seat (or a spectator), so it can hold no tile of
// another hand while the match is live. This file holds the seat and what the page does;
// the hand (hand.js), the log (tablelog.js), the stream (tablestream.js) and the table's
// words (tabletext.js) are modules of their own.
import { api, matchId, showError, drawLine, scoreList, seatLabel, savedSeat, saveSeat, forgetSeat, t, tn } from "/assets/common.js";
import { reservedSeat, decline, withdraw, resignBox } from "/assets/consent.js";
import { renderJoin, join } from "/assets/join.js";
import { me, listen, announce } from "/assets/player.js";
import { endScreen } from "/assets/endscreen.js";
import { handPanel } from "/assets/hand.js";
import { eventLog, LOG_SIZE } from "/assets/tablelog.js";
import { tableStream } from "/assets/tablestream.js";
import { over, turnText, seatItems, endsText } from "/assets/tabletext.js";
import { dealBadge, showMissing, lastEvents, ownSeat } from "/assets/tablepage.js";

const id = matchId();
const base = `/api/v1/matches/${encodeURIComponent(id)}`;
const $ = (sel) => document.getElementById(sel);
const main = $("table");
const errorBox = $("error");

let seat = savedSeat(id); // {seat, token} or null
const player = me(); // the lasting player this browser is signed in as, or null
let bound = false; // the player holds a seat of this match, so its key stands for the seat
let keyRefused = false; // the key was refused here (rotated elsewhere): watch as a spectator
let challenged = null; // the seat of this waiting match reserved for the player, or null
let view = null;
let refreshing = null;
const events = eventLog(); // the last events
const hand = handPanel((body) => move(body));
const openStream = tableStream({
  base, refresh: () => refresh(), onEvent: (e) => { events.add([e]); events.render(view); },
  behind: (e) => !view || e.seq > view.version, lastSeq: () => events.lastSeq(0), stop: () => Boolean(view && over(view)),
});
// follow opens the stream after seq, as the seat this page holds now.
const follow = (after) => openStream(after, token());

// token is what stands for this browser's seat: the seat's own token, else the player's key
// where the player holds a seat.
const token = () => (leaving ? "" : seat ? seat.token : bound ? player.key : "");
let leaving = false; // the seat is being left
// The end screen: the result from this seat's side, rating changes, and the rematch.
const ending = endScreen({ id, base, token: () => token(), load: () => load(), player, errorBox });
const badge = dealBadge(); // who chose a seeded match's deal

// loads counts the reads begun: a finished match keeps its version when a rematch is linked
// to it, so render's check of versions cannot tell a read from before the rematch, answered
// late, from one after it; only the newest read begun may draw.
let loads = 0;

// load reads the match as this seat (or a spectator) sees it and draws it.
async function load() {
  const mine = ++loads;
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
    if (mine !== loads) return;
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
    // No match of this id: the page says so, and offers nothing of a table.
    if (err.status === 404 && err.code === "MATCH_NOT_FOUND" && !view) return showMissing(id);
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
    if (view) follow(events.lastSeq(Math.max(0, view.version - LOG_SIZE)));
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
  const mine = v.status === "in_progress" && h && h.number > 0 && h.turn === me;
  main.dataset.version = String(v.version);
  main.dataset.status = v.status;
  main.dataset.myTurn = mine ? "1" : "0";
  badge(v);
  $("rated").hidden = !v.rated;
  document.title = `${mine ? `${t("play.your_turn")} · ` : ""}${v.seats.map((s) => seatLabel(s, s.seat)).join(" v ")} · ${t("site.name")}`;
  $("turn").textContent = turnText(v, mine);
  scoreList($("scores"), v.seats, v.scores, v.target, over(v));
  $("seats").replaceChildren(...seatItems(v));
  drawLine($("line"), h ? h.line : [], events.lastEnd());
  $("ends").textContent = endsText(h);
  $("boneyard").textContent = h ? tn("boneyard", h.boneyard) : "";
  renderSeat(v, mine);
  ending.render(v);
  events.render(view);
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
  hand.render(v, mine);
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
    events.add(res.events);
    render(res.match);
  } catch (err) {
    showError(errorBox, err);
    await load();
  } finally {
    main.dataset.busy = "0";
  }
}

// notify tells the player, over its stream, what happens in its other matches. A rematch of
// this match reads it again, so that the end screen offers to go to it; the match's own
// stream brings everything else of this match. The player's stream starts each connection
// with a snapshot and replays nothing, so a finished match is read again then too: a rematch
// offered while the stream was reconnecting is found that way.
function notify() {
  if (!player) return;
  listen((type, data) => {
    if ((type === "rematch" && data.match === id) || (type === "snapshot" && view && view.status === "finished")) load();
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
  if (!id) return showMissing("");
  bound = !seat && (await ownSeat(player, id)); // a sealed match is read with the key alone
  $("seat-form").addEventListener("submit", takeSeat);
  $("join-form").addEventListener("submit", (ev) => join(ev, id, async (res) => {
    seat = { seat: res.seat, token: res.token };
    challenged = null;
    await load();
    // From the last event logged, not the view's version: the spectator's stream may not have
    // brought the join's own events yet, and closing it would lose them.
    if (view) follow(events.lastSeq(Math.max(0, view.version - LOG_SIZE)));
  }, player && !keyRefused ? player.key : ""));
  $("forget").addEventListener("click", () => { forgetSeat(id); seat = null; load().then(() => view && !over(view) && follow(view.version)); });
  const clicks = { leave, accept, decline: refuseChallenge, withdraw: callOff, resume, "end-cancel": hand.closeChoice,
    draw: () => move({ action: "draw" }), pass: () => move({ action: "pass" }) };
  for (const [button, fn] of Object.entries(clicks)) $(button).addEventListener("click", fn);
  resignBox(base, token, (v) => { render(v); }, errorBox);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && hand.choosing()) hand.closeChoice(); });
  await load();
  main.dataset.busy = "0";
  notify();
  if (!view) return; // no match to show
  // The log is filled from the match's last events at once, the stream going on after them.
  events.add(await lastEvents(base, view.version - LOG_SIZE, token()));
  events.render(view);
  if (over(view)) return;
  if (events.lastSeq(0) > view.version) refresh(); // the match moved on while the log was read
  follow(Math.max(0, view.version - LOG_SIZE));
}

start();
