// Joining an open seat of a waiting match from the table (docs/api-matches.md, "Playing with others").
// The form shows only when the server has open seats and the match has one this browser can take.
import { api, el, t, showError, saveSeat } from "/assets/common.js";

const $ = (sel) => document.getElementById(sel);
const errorBox = $("error");

// renderJoin offers the open seats of a waiting match to a browser that holds no seat in it.
// A player signed in joins as itself: its name is offered, and its key binds the seat.
export function renderJoin(v, player = null) {
  const open = v.status === "waiting" && !v.you ? v.open_seats || [] : [];
  $("join-box").hidden = open.length === 0;
  if (!open.length) return;
  const select = $("join-seat");
  const wanted = open.map(String).join(",");
  if (select.dataset.seats !== wanted) {
    select.replaceChildren(...open.map((s) => el("option", { value: s, text: t("seat.label", { n: s }) })));
    select.dataset.seats = wanted;
  }
  const link = inviteFromLink();
  if (link && open.includes(link.seat)) {
    select.value = String(link.seat);
    $("join-invite").value = link.invite;
  }
  if (player && !$("join-name").value) $("join-name").value = player.name;
  $("join-invite").required = !v.listed;
  $("join-note").textContent = v.listed
    ? t("join.listed")
    : t("join.enter_invite");
}

// inviteFromLink reads an invite link's "#invite={seat}.{invite}" once and takes it out of the
// address bar. A fragment never reaches a server, so the secret travels only between people.
let linked;
function inviteFromLink() {
  const m = /^#invite=(\d)\.([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (m) {
    linked = { seat: Number(m[1]), invite: m[2] };
    history.replaceState(null, "", location.pathname + location.search);
  }
  return linked;
}

// join takes the chosen open seat, keeps its token in this browser, and hands the answer on.
// With a player's key the seat is bound to the player.
export async function join(ev, id, joined, key = "") {
  ev.preventDefault();
  const seatNo = Number($("join-seat").value);
  const body = { name: $("join-name").value.trim() };
  const invite = $("join-invite").value.trim();
  if (invite) body.invite = invite;
  $("join-invite").value = "";
  linked = undefined;
  try {
    const res = await api(`/api/v1/matches/${encodeURIComponent(id)}/seats/${seatNo}/join`, { method: "POST", body, token: key });
    saveSeat(id, res.seat, res.token);
    showError(errorBox, null);
    await joined(res);
  } catch (err) {
    showError(errorBox, err);
  }
}
