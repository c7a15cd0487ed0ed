// The table's log: the last events in seq order, said in words, newest first, and each new
// one announced once in the live region, so that a screen reader hears the opponents' moves.
import { el, describe, markLeads } from "/assets/common.js";

const $ = (sel) => document.getElementById(sel);

// LOG_SIZE is how many of the last events the table keeps and shows.
export const LOG_SIZE = 12;

// eventLog keeps the table's last events.
export function eventLog() {
  let log = []; // the last events, in seq order

  // add takes events in, each once, whatever order they come in.
  function add(events) {
    for (const e of events) {
      if (log.some((x) => x.seq === e.seq)) continue;
      log.push(e);
    }
    log.sort((a, b) => a.seq - b.seq);
    markLeads(log);
    if (log.length > LOG_SIZE) log = log.slice(-LOG_SIZE);
  }

  // render lists the events as the view's seat reads them, and announces the new ones.
  function render(view) {
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

  // lastSeq is the seq of the newest event kept, or otherwise when there is none.
  const lastSeq = (otherwise) => (log.length ? log[log.length - 1].seq : otherwise);

  // lastEnd is the end the latest tile went to, so the line shows that end.
  function lastEnd() {
    const last = log.length ? log[log.length - 1] : null;
    return last && last.data && last.data.end && last.data.tile ? last.data.end : "";
  }

  return { add, render, lastSeq, lastEnd };
}
