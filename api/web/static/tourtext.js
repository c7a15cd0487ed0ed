// Tournaments said in words, shared by the tournaments page and a tournament's page.
import { t } from "/assets/common.js";
import { formatName } from "/assets/ratings.js";

// summary says a tournament's kind: "Round robin · Two players (2p) · duplicate · rated".
export function summary(v) {
  const s = v.spec;
  const parts = [s.system === "swiss" ? t("tour.swiss", { rounds: v.planned_rounds }) : t("tour.round_robin"), formatName(s.format)];
  if (s.duplicate) parts.push(t("tour.duplicate"));
  if (s.rated) parts.push(t("create.rated"));
  return parts.join(" · ");
}

// STATUS_KEYS name each status's words (keys written out, so the catalogue test sees them).
const STATUS_KEYS = { upcoming: "tour.status.upcoming", running: "tour.status.running", finished: "tour.status.finished", cancelled: "tour.status.cancelled" };

// statusName says a tournament's status.
export const statusName = (status) => (STATUS_KEYS[status] ? t(STATUS_KEYS[status]) : status);
