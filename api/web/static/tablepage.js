// What the table's page says of the match itself, beside the play: the badge of a deal not
// drawn for this match alone (a seed its creator chose, or a duplicate tournament's round), and
// the page shown instead of a table when there is no match to show.
import { api, t } from "/assets/common.js";

const $ = (sel) => document.getElementById(sel);

// roundOf finds the tournament round whose deal the match plays: a round whose commitment is
// the match's and whose tables hold the match. from is the tournament the page was opened
// from (?tournament=), read first; else the running and finished tournaments are searched.
async function roundOf(v, from) {
  // A tournament seats only its entrants: lasting players and bots. A seeded match with a seat
  // of anyone else is no tournament's, and is not looked for (nor asked of a server that may
  // have no tournaments at all).
  if (!v.seats.every((s) => s.player || s.kind === "bot")) return null;
  const holds = (tv) => (tv.rounds || []).find((r) => r.commitment === v.commitment && r.tables.some((tb) => tb.match === v.id));
  if (from) {
    const tv = await api(`/api/v1/tournaments/${encodeURIComponent(from)}`).catch(() => null);
    const r = tv && holds(tv);
    if (r) return { tournament: tv, round: r.round };
  }
  for (const status of ["running", "finished"]) {
    const res = await api(`/api/v1/tournaments?status=${status}&limit=50`).catch(() => null);
    for (const tv of (res && res.tournaments) || []) {
      const r = holds(tv);
      if (r) return { tournament: tv, round: r.round };
    }
  }
  return null;
}

// dealBadge shows, once per match, who chose the deal of a seeded match: the server, for a
// duplicate tournament's round (every table of the round plays it), else the match's creator,
// who can compute every hand, which whoever sits or watches should know.
export function dealBadge() {
  let asked = "";
  return async function show(v) {
    if (!v.seeded || asked === v.id) return;
    asked = v.id;
    const found = await roundOf(v, new URLSearchParams(location.search).get("tournament"));
    if (found) {
      const link = $("tour-deal");
      link.textContent = t("table.tour_deal", { round: found.round });
      link.title = t("table.tour_deal_title", { name: found.tournament.spec.name });
      link.href = `/tournaments/${encodeURIComponent(found.tournament.id)}`;
      link.hidden = false;
      $("seeded").hidden = true;
      return;
    }
    $("seeded").hidden = false;
  };
}

// showMissing replaces the table by a page that says there is no match to show: none named in
// the address (/play/), or none of that id. Nothing of a table is left: no form, no loading.
export function showMissing(id) {
  const main = $("table");
  for (const child of [...main.children]) child.hidden = true;
  const box = $("missing");
  $("missing-text").textContent = id ? t("table.missing_id", { id }) : t("table.missing_none");
  box.hidden = false;
  main.dataset.busy = "0";
  main.dataset.status = "missing";
  document.title = `${t("table.missing_title")} · ${t("site.name")}`;
}

// lastEvents reads the match's last events, so that the log is filled at once, before the
// stream brings anything, for a spectator as for a seat (read with its token, as it sees them).
export async function lastEvents(base, after, token) {
  const res = await api(`${base}/events?after=${Math.max(0, after)}`, { token }).catch(() => null);
  return res ? res.events : [];
}

// ownSeat says whether the signed-in player holds a seat of match id, from the player's own
// list of matches, read with its key: the one read that lists a sealed match (a duplicate
// round's, still being played), which the match's own address refuses to read without the key.
export async function ownSeat(player, id) {
  if (!player) return false;
  const res = await api(`/api/v1/players/${encodeURIComponent(player.id)}/matches?limit=50`, { token: player.key }).catch(() => null);
  // Not a waiting match: the list holds the challenges to the player too, which it does not sit in.
  return Boolean(res && res.matches.some((m) => m.id === id && m.status !== "waiting"));
}
