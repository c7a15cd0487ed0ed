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

// SCORING is what a tournament's page says of how its points are counted, paragraph by
// paragraph (docs/tournaments.md, "Points" and "Duplicate scoring"): a duplicate tournament's
// points are game points, above or below zero, so its page says why.
const SCORING = {
  plain: ["tour.scoring.plain", "tour.scoring.ties"],
  duplicate: ["tour.scoring.dup_deals", "tour.scoring.dup_points", "tour.scoring.dup_ties"],
};

// scoringText is the paragraphs' words for the tournament v.
export const scoringText = (v) => SCORING[v.spec.duplicate ? "duplicate" : "plain"].map((k) => t(k));

// pointsText says a standing's points: a duplicate tournament's with their sign, as the game
// points more (+) or fewer (−) than the others who held the same tiles.
export function pointsText(v, points, num) {
  if (!v.spec.duplicate || points === 0) return num(points);
  return points > 0 ? `+${num(points)}` : `−${num(-points)}`;
}

// botStrategies are the bots an organiser may enter, strongest first: the enum of the entry
// request's bot in the API's own document (weakest first there, as the bots' ladder measured).
export const botStrategies = () => fetch("/swagger/doc.json")
  .then((r) => (r.ok ? r.json() : {}))
  .then((doc) => ((((doc.definitions || {})["api.EnterTournamentRequest"] || {}).properties || {}).bot || {}).enum || [])
  .catch(() => [])
  .then((names) => (names.length ? names : ["random", "greedy", "pimc", "expert"]).slice().reverse());
