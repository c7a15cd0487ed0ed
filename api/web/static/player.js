// The lasting player of this browser (docs/api-players.md, "Players" and "The web client"): signed up
// or signed in with a pasted key, kept in localStorage, and told what happens in its matches
// over the player's stream while a page is open. The key is sent only in the Authorization
// header; a stream is opened with a single-use ticket, never with the key in its address.
import { api, el, t, liveStream } from "/assets/common.js";

const STORE = "allfives:player";

// me is the player this browser is signed in as, {id, name, key}, or null.
export function me() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE) || "null");
    return v && typeof v.key === "string" && typeof v.id === "string" ? v : null;
  } catch {
    return null;
  }
}

function remember(player, key) {
  localStorage.setItem(STORE, JSON.stringify({ id: player.id, name: player.name, key }));
  return me();
}

// signUp makes a new player of a name and keeps its key, which the server shows only once.
export async function signUp(name) {
  const res = await api("/api/v1/players", { method: "POST", body: { name } });
  return remember(res.player, res.key);
}

// signIn checks a pasted key with the server and keeps it.
export async function signIn(key) {
  return remember(await api("/api/v1/players/me", { token: key }), key);
}

// signOut forgets the key in this browser (the key itself stays valid: rotate it to end it).
export function signOut() {
  localStorage.removeItem(STORE);
}

// rotateKey replaces the key with a new one: the old one stops working everywhere at once.
export async function rotateKey() {
  const p = me();
  const res = await api("/api/v1/players/me/key", { method: "POST", token: p.key });
  return remember(p, res.key);
}

// PLAYER_ID is the shape of a player's id: 32 hexadecimal digits.
const PLAYER_ID = /^[0-9a-f]{32}$/;

// findPlayer answers the player of a name or an id.
export async function findPlayer(who) {
  const w = who.trim();
  if (PLAYER_ID.test(w)) {
    try {
      return await api(`/api/v1/players/${w}`);
    } catch (err) {
      if (err.status !== 404) throw err; // a name may look like an id: look it up as a name
    }
  }
  const res = await api(`/api/v1/players?name=${encodeURIComponent(w)}`);
  return res.player;
}

// The API's own document says which routes this server has: players, and their stream. It is
// read once, and only by a page that needs to know.
let docPaths = null;
function paths() {
  docPaths ||= fetch("/swagger/doc.json")
    .then((r) => (r.ok ? r.json() : {}))
    .then((doc) => doc.paths || {})
    .catch(() => ({}));
  return docPaths;
}

// hasPlayers says whether this server has lasting players.
export const hasPlayers = () => paths().then((p) => Boolean(p["/api/v1/players"]));

// hasRatings says whether it has ratings and leaderboards (docs/ratings.md).
export const hasRatings = () => paths().then((p) => Boolean(p["/api/v1/leaderboard/{format}"] && p["/api/v1/players/{id}/ratings"]));

// hasPlayerStream says whether it has the player's stream, so that a page never asks for it in
// vain on a server without it.
const hasPlayerStream = () => paths().then((p) => Boolean(p["/api/v1/players/me/stream"] && p["/api/v1/players/me/tickets"]));

// PLAYER_EVENTS are the player's stream's event types (docs/api-players.md, "Players").
export const PLAYER_EVENTS = Object.freeze(["snapshot", "turn", "challenge", "joined", "started", "ended", "rematch", "declined", "cancelled", "matched", "round", "tournament_ended"]);

// listen follows the player's stream while the page is open, calling onEvent(type, data) for
// each event. Each connection takes a new ticket: a ticket is single-use, so a connection that
// drops is closed and opened again with another rather than retried with the same address.
export function listen(onEvent, onState = () => {}) {
  const p = me();
  if (!p) return null;
  let live = null;
  let closed = false;
  hasPlayerStream().then((ok) => {
    if (ok && !closed) live = follow(p, onEvent, onState);
  });
  return {
    close() {
      closed = true;
      if (live) live.close();
    },
  };
}

function follow(p, onEvent, onState) {
  return liveStream({
    ticket: async () => (await api("/api/v1/players/me/tickets", { method: "POST", token: p.key })).ticket,
    url: (ticket) => `/api/v1/players/me/stream?${new URLSearchParams({ ticket })}`,
    types: PLAYER_EVENTS,
    onEvent: (type, msg) => {
      let data = {};
      try {
        data = JSON.parse(msg.data || "{}");
      } catch {
        data = {};
      }
      onEvent(type, data);
    },
    onState,
  });
}

// announce says an event of the player's stream as a notice, naming the other players of the
// match (the match as anyone may read it). here is the match the page shows, whose events the
// page shows itself; snapshot and started need no notice.
export async function announce(type, data, here = "") {
  const mid = data.match || "";
  if (!mid || mid === here || (type === "rematch" && data.next_match_id === here)) return;
  let others = "";
  let side = null;
  try {
    // A match the player sits in is read with its key: a duplicate round's is sealed to others.
    const sits = ["round", "turn", "joined", "ended"].includes(type) && me();
    const v = await api(`/api/v1/matches/${encodeURIComponent(mid)}`, sits ? { token: me().key } : {});
    others = v.seats.filter((x) => x.seat !== data.seat && x.kind !== "open").map((x) => x.name).join(", ");
    side = v.seats[data.seat] ? v.seats[data.seat].side : null;
  } catch {
    others = "";
  }
  const vs = others ? ` ${t("notice.against", { vs: others })}` : "";
  const open = (href, text) => el("a", { href, text });
  const table = `/play/${encodeURIComponent(mid)}`;
  if (type === "challenge") notice(t("notice.challenge", { who: others || t("rematch.someone") }), open(table, t("notice.open_challenge")), mid);
  else if (type === "turn") notice(t("notice.turn", { vs }), open(table, t("notice.play")), mid);
  else if (type === "joined" && data.joined_seat !== data.seat) notice(t("notice.joined", { who: data.name || t("notice.a_player"), n: data.joined_seat, vs }), open(table, t("notice.open_table")), mid);
  else if (type === "ended" && data.status === "finished") {
    const how = data.winner_side === undefined || side === null ? "notice.over" : data.winner_side === side ? "notice.won" : "notice.lost";
    notice(t(how, { vs }), open(table, t("notice.see_end")), mid);
  } else if (type === "rematch" && data.next_match_id) {
    notice(t("notice.rematch", { vs }), open(`/play/${encodeURIComponent(data.next_match_id)}`, t("rematch.go")), mid);
  } else if (type === "round" && data.tournament) {
    const link = open(`/tournaments/${encodeURIComponent(data.tournament)}`, t("notice.see_tournament"));
    const seat = `${table}?tournament=${encodeURIComponent(data.tournament)}`; // the table's badge names the round
    notice(t("notice.round", { round: data.round, vs }), data.match ? el("span", {}, open(seat, t("notice.play")), " ", link) : link, mid);
  } else if (type === "declined" || type === "cancelled") {
    notice(t("notice.cancelled", { vs }), open(table, t("notice.open_table")), mid);
  }
}

// notice shows a notification in the page's live region (made on first use): words, and a
// link or button to act on it. At most a few are kept, the newest first; a notice of a match
// (key) takes the place of the one before it.
export function notice(text, action, key = "") {
  let box = document.getElementById("notices");
  if (!box) {
    box = el("section", { id: "notices", class: "notices", "aria-label": t("notice.label") },
      el("ul", { id: "notice-list", "aria-live": "polite" }));
    document.body.append(box);
  }
  const list = box.querySelector("ul");
  if (key) for (const old of list.querySelectorAll("li")) if (old.dataset.key === key) old.remove();
  const item = el("li", { class: "notice", "data-key": key || undefined }, el("span", { class: "notice-text", text }), action ? [" ", action] : null,
    " ", el("button", { type: "button", class: "dismiss", "aria-label": t("notice.dismiss", { text }), text: "×", onclick: () => item.remove() }));
  list.prepend(item);
  while (list.children.length > 4) list.lastElementChild.remove();
  return item;
}
