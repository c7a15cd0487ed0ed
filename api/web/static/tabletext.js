// The table's words, each a function of the match's view alone: whose turn it is (and the
// clock), each seat's line in the list of seats, why a match never started, and what the open
// ends count.
import { el, seatLabel, t, tn } from "/assets/common.js";
import { locale } from "/assets/i18n.js";
import { waitingText } from "/assets/consent.js";
import { profileLink } from "/assets/ratings.js";

// over says nothing more will happen in the match.
export const over = (v) => v.status === "finished" || v.status === "expired" || v.status === "cancelled";

// turnText says where the match stands: what it waits for, or whose turn it is and until when;
// mine says the turn is the viewer's.
export function turnText(v, mine) {
  const h = v.hand;
  const live = v.status === "in_progress";
  const clock = live && h && v.seats[h.turn] && v.seats[h.turn].deadline
    ? ` ${t("play.clock", { time: new Date(v.seats[h.turn].deadline).toLocaleTimeString(locale) })}` : "";
  // A seat kept for someone (reserved_for) waits for that one's answer, not for anyone.
  return v.status === "waiting" ? waitingText(v)
    : v.status === "expired" ? t("play.expired")
    : v.status === "cancelled" ? cancelledText(v)
    : !live ? t("play.is_over")
    : !h || h.number === 0 ? t("play.wait_deal")
    : (mine ? t("play.your_turn") : t("play.to_move", { who: seatLabel(v.seats[h.turn], h.turn) })) + clock;
}

// seatItems are the list of seats: each one's name (linked to its player's page when it has
// one), its tiles, its kind, its side in partnerships, and whether it is to move.
export function seatItems(v) {
  const h = v.hand;
  const me = v.you ? v.you.seat : -1;
  const live = v.status === "in_progress";
  return v.seats.map((s) => {
    const toMove = live && h && h.turn === s.seat;
    const kind = s.kind === "bot" ? t("kind.bot", { bot: s.bot }) : s.kind === "open" ? (s.reserved_for ? t("kind.kept", { who: s.reserved_for.name }) : t("kind.open"))
      : s.resigned ? t("kind.resigned") : s.autoplay ? t("kind.autoplay") : s.program === true ? t("table.kind_program") : t("kind.human");
    // A seat bound to a lasting player (or a rated match's bot) links to the player's page.
    const pid = s.player || (v.rated && s.kind === "bot" && s.bot ? `bot-${s.bot}` : ""); // the bots are players bot-{strategy}
    const who = pid ? profileLink(pid, seatLabel(s, s.seat)) : seatLabel(s, s.seat);
    return el("li", { class: toMove ? "to-move" : "", "data-seat": s.seat },
      who, `${s.seat === me ? ` ${t("you_tag")}` : ""}: ${tn("tiles", s.tiles)}`,
      el("span", { class: "muted", text: ` · ${kind}${v.partnerships ? `, ${t("side.n", { n: s.side })}` : ""}` }),
      toMove ? el("span", { class: "tag", text: ` ▶ ${t("to_move")}` }) : null);
  });
}

// cancelledText says why a match never started.
export function cancelledText(v) {
  const c = v.cancelled || {};
  const s = c.seat === undefined ? null : v.seats[c.seat];
  const who = s ? (s.reserved_for ? s.reserved_for.name : seatLabel(s, s.seat)) : "";
  return c.reason === "declined" ? t("play.cancel.declined", { who })
    : c.reason === "withdrawn" ? t("play.cancel.withdrawn", { who })
    : c.reason === "offer_expired" ? t("play.cancel.expired") : t("play.cancelled");
}

// endsText says the open ends and what they count.
export function endsText(h) {
  if (!(h && h.left)) return "";
  const end = (e) => (e.double ? t("ends.double", { pip: e.pip }) : String(e.pip));
  return t("ends.count", { left: end(h.left), right: end(h.right), total: h.total });
}
