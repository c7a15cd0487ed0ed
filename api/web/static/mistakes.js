// "Your mistakes" (docs/puzzles.md, "The web pages"): the puzzles made of the signed-in
// player's own decisions, listed into the element with id "mistakes" on that player's own page
// (/player/{id}), each with what was played, the best move, the points lost and a link to the
// match at that decision. Another player's page, or a visitor who is not signed in, shows
// nothing: the API lists a player's mistakes to its own key only.
import { api, el, t, showError } from "/assets/common.js";
import { me } from "/assets/player.js";
import { moveText } from "/assets/puzzles-text.js";

// listMistakes fills box with the signed-in player's mistakes when the page is its own.
export async function listMistakes(box = document.getElementById("mistakes"), player = decodeURIComponent(location.pathname.split("/")[2] || "")) {
  const you = me();
  if (!box || !you || you.id !== player) {
    if (box) box.hidden = true;
    return;
  }
  const status = el("p", { "aria-live": "polite", text: t("loading") });
  const error = el("p", { class: "error", role: "alert", hidden: true });
  box.replaceChildren(el("h2", { id: "mistakes-title", text: t("puzzles.mistakes_title") }), status, error);
  box.setAttribute("aria-labelledby", "mistakes-title");
  box.hidden = false;
  try {
    const res = await api(`/api/v1/players/${encodeURIComponent(you.id)}/puzzles`, { token: you.key });
    if (!res.puzzles.length) {
      status.textContent = t("puzzles.mistakes_none");
    } else {
      status.textContent = t("puzzles.mistakes_count", { n: res.puzzles.length });
      box.append(el("ul", { class: "mistakes" }, ...res.puzzles.map((p) => el("li", { "data-puzzle": p.id },
        t("puzzles.mistake", { hand: p.position.hand_number, played: moveText(p.played), best: moveText(p.best), loss: Math.round(p.loss * 10) / 10 }), " ",
        el("a", { href: `/replay/${encodeURIComponent(p.source.match)}?step=${p.source.step - 1}`, text: t("puzzles.mistake_link") })))));
    }
  } catch (err) {
    status.textContent = "";
    showError(error, err);
  } finally {
    box.dataset.loaded = "1";
  }
}

listMistakes();
