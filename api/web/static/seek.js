// Play now (docs/api-seeks.md, "Play now"): a signed-in player seeks a game of a format, rated or
// not; the page shows the time waited and a Cancel button, and opens the table once the seek
// is matched: told by the player's stream (matched), or found by reading the seek again.
import { api, el, t, showError } from "/assets/common.js";
import { me, hasRatings } from "/assets/player.js";
import { FORMATS } from "/assets/ratings.js";

const $ = (sel) => document.getElementById(sel);
let seek = null; // the seek waited on: {id, created_at}
let ticking = null;
let polling = null;

// setupPlayNow fills the format choice and wires the form; show() draws it for the player.
export function setupPlayNow(errorBox) {
  $("play-format").replaceChildren(...FORMATS.map(([f, name]) => el("option", { value: f, text: `${name} (${f})` })));
  hasRatings().then((ok) => { $("play-rated-box").hidden = !ok; });
  $("play-now").addEventListener("submit", (ev) => start(ev, errorBox));
  $("seek-cancel").addEventListener("click", () => cancel(errorBox));
  addEventListener("allfives:player", () => { if (!me()) stop(); });
}

// seekMatched is the player's stream's matched event: the table of the seek waited on opens.
export function seekMatched(data) {
  if (seek && data.seek === seek.id && data.match) open(data.match);
}

async function start(ev, errorBox) {
  ev.preventDefault();
  const button = $("play-now-button");
  button.disabled = true;
  try {
    const body = { format: $("play-format").value, rated: $("play-rated").checked && !$("play-rated-box").hidden };
    const res = await api("/api/v1/seeks", { method: "POST", body, token: me().key });
    showError(errorBox, null);
    wait(res.seek);
  } catch (err) {
    showError(errorBox, err);
  } finally {
    button.disabled = false;
  }
}

// wait shows the waiting state: the format, the time waited since the seek was made, Cancel.
function wait(s) {
  seek = s;
  $("play-now").hidden = true;
  $("seeking").hidden = false;
  $("seeking").dataset.seek = s.id;
  $("seek-what").textContent = t("seek.searching", { format: s.format });
  const since = Date.parse(s.created_at) || Date.now();
  const tick = () => {
    const secs = Math.max(0, Math.floor((Date.now() - since) / 1000));
    $("seek-elapsed").textContent = t("seek.elapsed", { time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` });
  };
  tick();
  clearInterval(ticking);
  ticking = setInterval(tick, 1000);
  clearInterval(polling);
  polling = setInterval(check, 1500); // in case the stream is not live
}

// check reads the seek again: matched opens the table, an ended seek ends the wait.
async function check() {
  if (!seek || !me()) return;
  try {
    const res = await api(`/api/v1/seeks/${encodeURIComponent(seek.id)}`, { token: me().key });
    settle(res.seek);
  } catch {
    // the next look tries again; a refused key signs the panel out elsewhere
  }
}

function settle(s) {
  if (s.status === "matched" && s.match) open(s.match);
  else if (s.status === "cancelled" || s.status === "expired") {
    stop();
    $("seek-note").textContent = t(s.status === "expired" ? "seek.expired" : "seek.cancelled");
  }
}

async function cancel(errorBox) {
  if (!seek) return;
  $("seek-cancel").disabled = true;
  try {
    const res = await api(`/api/v1/seeks/${encodeURIComponent(seek.id)}`, { method: "DELETE", token: me().key });
    showError(errorBox, null);
    settle(res.seek); // the matcher may have paired it first: then its table opens
  } catch (err) {
    showError(errorBox, err);
  } finally {
    $("seek-cancel").disabled = false;
  }
}

function open(match) {
  stop();
  location.assign(`/play/${encodeURIComponent(match)}`);
}

// stop ends the waiting state and shows the button again.
function stop() {
  seek = null;
  clearInterval(ticking);
  clearInterval(polling);
  $("seeking").hidden = true;
  delete $("seeking").dataset.seek;
  $("play-now").hidden = false;
}
