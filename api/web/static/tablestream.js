// The table's stream (docs/api-web.md, "The web client"): the match live over server-sent events,
// every type of EVENT_TYPES listened to. A seat's stream is opened with a single-use ticket
// that the seat's token (or key) buys, never with the token in the address.
import { api, EVENT_TYPES, liveStream, t } from "/assets/common.js";

const $ = (sel) => document.getElementById(sel);
// The events after which nothing more happens.
const OVER = ["match.ended", "match.expired", "match.cancelled"];

// tableStream follows the match at base. refresh() reads the view again; onEvent(e) takes
// each event in; behind(e) says the view shown is older than e, so refresh is due; lastSeq()
// is the seq of the newest event seen, to go on after; stop() says nothing more will happen.
// It returns follow(after, credential), which (re)opens the stream after seq after.
export function tableStream({ base, refresh, onEvent, behind, lastSeq, stop }) {
  let stream = null;
  // A server without tickets (one with no players: the route is unknown, not the match) is
  // followed as a spectator does, and the seat's own view read after each event as always:
  // the token never goes in an address.
  let noTickets = false;

  // ticket buys a single-use ticket to this match's stream as the seat.
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

  // follow opens the stream after seq; each reconnection buys a new ticket and goes on after
  // the last event seen.
  return function follow(after, credential) {
    if (stream) stream.close();
    stream = liveStream({
      ticket: credential && !noTickets ? () => ticket(credential) : null,
      url: (ticket) => {
        const q = new URLSearchParams({ after: String(Math.max(after, lastSeq())) });
        if (ticket) q.set("ticket", ticket);
        return `${base}/stream?${q}`;
      },
      types: EVENT_TYPES,
      onEvent: (type, msg) => {
        const e = JSON.parse(msg.data);
        onEvent(e);
        if (OVER.includes(e.type)) {
          stream.close();
          $("live").textContent = t("play.live_over");
        }
        if (behind(e)) refresh();
      },
      onState: (st) => { $("live").textContent = st === "live" ? t("play.live") : t("play.reconnecting"); },
      stop,
    });
  };
}
