// A puzzle's moves in words, shared by the Puzzles page and "Your mistakes"
// (docs/puzzles.md, "The web pages").
import { t, tileName, endName } from "/assets/common.js";

// moveText says a move in words: "6-6 on the left", "draw a tile", "pass".
export function moveText(m) {
  if (m.action === "play") return t("puzzles.move_play", { tile: tileName(m.tile), end: endName(m.end) });
  return t(m.action === "draw" ? "puzzles.move_draw" : "puzzles.move_pass");
}
