// The seat's hand at the table: its tiles as buttons, each playable one with the points it
// would score written on it, the draw and pass buttons, and the question of which end when a
// tile fits both. A move goes out through the move function the table gives.
import { el, tileSVG, t, endName, tileName } from "/assets/common.js";

const $ = (sel) => document.getElementById(sel);

// handPanel draws the hand of the seat whose view it is given; move(body) sends a move.
export function handPanel(move) {
  let choosing = null; // the tile whose end is being asked

  function closeChoice() {
    choosing = null;
    $("end-choice").hidden = true;
  }

  // choose plays a tile that fits one end, and asks which end for a tile that fits both.
  function choose(x, plays) {
    if (plays.length === 1) return move({ action: "play", tile: x, end: plays[0].end });
    choosing = x;
    const box = $("end-choice");
    $("end-question").textContent = t("tile.fits_both", { tile: tileName(x) });
    for (const b of box.querySelectorAll("button[data-end]")) {
      const m = plays.find((p) => p.end === b.dataset.end);
      b.textContent = t("tile.on_end", { end: endName(m.end), points: m.points });
      b.onclick = () => {
        closeChoice();
        move({ action: "play", tile: x, end: m.end });
      };
    }
    box.hidden = false;
    box.querySelector("button[data-end]").focus();
  }

  // tileButton is one tile of the hand: playable when it has plays, with the points each would
  // score written on it (the border and the lift say "playable" as well as the colour).
  function tileButton(x, plays, mine) {
    const pts = (m) => (m.points > 0 ? `+${m.points}` : "+0");
    const name = tileName(x);
    let badge = "";
    let label = t("tile.not_playable", { tile: name });
    if (plays.length === 1) {
      badge = pts(plays[0]);
      label = t("tile.play_on", { tile: name, end: endName(plays[0].end), points: plays[0].points });
    } else if (plays.length > 1) {
      const [l, r] = ["left", "right"].map((e) => plays.find((m) => m.end === e));
      badge = `${t("end.l")}${pts(l)} ${t("end.r")}${pts(r)}`;
      label = t("tile.play_either", { tile: name, left: l.points, right: r.points });
    } else if (!mine) {
      label = name;
    }
    const t0 = x;
    // The points written on the tile are part of its name too (WCAG 2.5.3, label in name).
    if (plays.length) label = `${badge}: ${label}`;
    return el("button", {
      type: "button", class: `tile${plays.length ? " legal" : ""}`, "data-tile": t0, disabled: plays.length === 0,
      "aria-label": label, title: label, onclick: () => choose(t0, plays),
    }, handTile(t0), el("span", { class: "badge", "aria-hidden": "true", text: plays.length ? badge : mine ? "—" : "" }));
  }

  // render draws the hand of v.you, with its moves when mine (the seat is to move).
  function render(v, mine) {
    const moves = mine ? v.legal_moves || [] : [];
    // The hand is drawn again only when it changed, so that a refresh bringing the same view
    // never swaps a button from under a pointer or the keyboard focus.
    const key = JSON.stringify([v.you.tiles, moves, mine]);
    const hand = $("hand");
    if (hand.dataset.key !== key || hand.querySelector("button:disabled.legal")) {
      const hadFocus = hand.contains(document.activeElement) || document.activeElement === document.body;
      hand.replaceChildren(...v.you.tiles.map((t) => tileButton(t, moves.filter((m) => m.action === "play" && m.tile === t), mine)));
      hand.dataset.key = key;
      // A keyboard player whose tile went into the line goes on from the hand, not the page top.
      const first = hand.querySelector("button.legal");
      if (hadFocus && first && document.activeElement === document.body) first.focus({ preventScroll: true });
    }
    hand.classList.toggle("mine", Boolean(mine)); // in the seat's turn the unplayable tiles fade
    for (const action of ["draw", "pass"]) {
      $(action).hidden = !moves.some((m) => m.action === action);
      $(action).disabled = false;
    }
    if (choosing && !moves.some((m) => m.tile === choosing)) closeChoice();
  }

  return { render, closeChoice, choosing: () => choosing !== null };
}

// handTile is a tile drawn on its button: the button's name says the tile and its plays, so the
// drawing itself is hidden from screen readers (its name would be said twice).
function handTile(x) {
  const svg = tileSVG(x, true);
  svg.setAttribute("aria-hidden", "true");
  svg.removeAttribute("role");
  svg.removeAttribute("aria-label");
  svg.querySelector("title").remove();
  return svg;
}
