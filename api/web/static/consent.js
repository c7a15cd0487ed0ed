// Consent at the table (docs/api-matches.md, "Consent"): nobody is put into a match they did not
// accept, and every match ends. A challenge or a rematch offer is accepted or declined by the
// one its seat is kept for, withdrawn by a seat holder while it waits, and a match in progress
// is resigned after a confirmation. Each says who it waits for ("Bo has not answered yet").
import { api, el, t, showError, saveSeat, savedSeat, seatLabel } from "/assets/common.js";

const $ = (sel) => document.getElementById(sel);

// waitingText says what a waiting match waits for: each seat kept for someone by name, and
// the seats open to anyone.
export function waitingText(v) {
  const kept = v.seats.filter((s) => s.kind === "open" && s.reserved_for).map((s) => s.reserved_for.name);
  const open = v.seats.filter((s) => s.kind === "open" && !s.reserved_for).map((s) => s.seat);
  const parts = [];
  if (kept.length) parts.push(t("wait.for", { who: kept.join(", ") }), ...kept.map((who) => t("wait.not_answered", { who })));
  if (open.length) parts.push(t(open.length === 1 ? "wait.open.one" : "wait.open.other", { seats: open.join(", ") }));
  return parts.join(" ") || t("wait.players");
}

// reservedSeat is the seat of a waiting match kept for the player, or null.
export function reservedSeat(v, player) {
  if (!player || v.status !== "waiting") return null;
  const s = v.seats.find((x) => x.kind === "open" && x.reserved_for && x.reserved_for.id === player.id);
  return s ? s.seat : null;
}

// decline refuses the seat of match id kept for the caller: the match ends cancelled.
export async function decline(id, seat, credential) {
  return api(`/api/v1/matches/${encodeURIComponent(id)}/seats/${seat}/decline`, { method: "POST", token: credential });
}

// withdraw calls off a waiting match the caller holds a seat of.
export async function withdraw(id, credential) {
  return api(`/api/v1/matches/${encodeURIComponent(id)}/cancel`, { method: "POST", token: credential });
}

// resignBox wires the table's resign button to an inline confirmation: the first press asks,
// "Yes, resign" resigns, "Keep playing" closes the question. done(view) gets the answer.
export function resignBox(base, token, done, errorBox) {
  const ask = $("resign");
  const box = $("resign-confirm");
  const close = (focusBack) => {
    box.hidden = true;
    if (focusBack) ask.focus();
  };
  ask.addEventListener("click", () => {
    box.hidden = false;
    $("resign-yes").focus();
  });
  $("resign-no").addEventListener("click", () => close(true));
  box.addEventListener("keydown", (e) => { if (e.key === "Escape") close(true); });
  $("resign-yes").addEventListener("click", async () => {
    $("resign-yes").disabled = true;
    try {
      const v = await api(`${base}/resign`, { method: "POST", token: token() });
      showError(errorBox, null);
      close(false);
      done(v);
    } catch (err) {
      showError(errorBox, err);
    } finally {
      $("resign-yes").disabled = false;
    }
  });
}

// rematchState says, on a finished match's end screen, where its rematch stands for this
// seat: none offered yet; offered by another and waiting for this seat's answer; taken by this
// browser (its seat in the next match is held here); or the next match's own end
// (cancelled, started). next is the next match as anyone reads it, or null.
export function rematchState(v, next, player) {
  if (!v.next_match_id || !next) return { kind: "none" };
  const seat = v.you ? v.you.seat : -1;
  const mine = next.seats[seat];
  const held = savedSeat(next.id) || (player && mine && mine.player === player.id && mine.kind !== "open");
  if (next.status === "cancelled") return { kind: "cancelled", next };
  if (held || (mine && mine.kind !== "open")) {
    const kept = next.seats.filter((s) => s.kind === "open" && s.reserved_for).map((s) => s.reserved_for.name);
    return { kind: "taken", next, kept };
  }
  if (next.status === "waiting" && mine && mine.kind === "open") {
    const by = next.seats.filter((s) => s.kind !== "open" && s.kind !== "bot").map((s) => seatLabel(s, s.seat));
    return { kind: "offered", next, by };
  }
  return { kind: "other", next };
}

// rematchText says a rematch state in words.
export function rematchText(st) {
  switch (st.kind) {
    case "offered":
      return t("rematch.offered", { who: st.by.join(", ") || t("rematch.someone") });
    case "taken":
      return st.next.status === "waiting"
        ? `${t("rematch.yours")} ${st.kept.map((who) => t("wait.not_answered", { who })).join(" ")}`
        : t("rematch.started");
    case "cancelled": {
      const c = st.next.cancelled || {};
      return c.reason === "declined" ? t("rematch.declined") : c.reason === "withdrawn" ? t("rematch.withdrawn") : t("rematch.expired");
    }
    default:
      return "";
  }
}

// acceptRematch takes this seat in the next match (the same route as the offer), keeps the
// seat's token and answers the next match's id.
export async function acceptRematch(base, credential) {
  const res = await api(`${base}/rematch`, { method: "POST", token: credential });
  const next = res.match;
  if (res.token && next.you) saveSeat(next.id, next.you.seat, res.token);
  return next.id;
}

// rematchControls are the end screen's buttons for a state: offer, accept and decline, go.
export function rematchControls(st, { offer, accept, refuse }) {
  const go = (href, text) => el("a", { href, id: "rematch-go", class: "button-link", text });
  const next = st.next ? `/play/${encodeURIComponent(st.next.id)}` : "";
  switch (st.kind) {
    case "none":
      return [el("button", { type: "button", id: "rematch", class: "primary", onclick: offer, text: t("rematch.offer") })];
    case "offered":
      return [el("button", { type: "button", id: "rematch-accept", class: "primary", onclick: accept, text: t("rematch.accept") }), " ",
        el("button", { type: "button", id: "rematch-decline", onclick: refuse, text: t("rematch.decline") })];
    case "taken":
    case "other":
      return [go(next, t("rematch.go"))];
    default:
      return [];
  }
}
