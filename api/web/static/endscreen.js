// The table's end screen (docs/api-web.md, "The web client"): the result said from the seat's
// side ("You won 50 to 15 against Ada"), a rated match's rating changes once the projection
// has them, and the rematch: offer one, or answer one another offered, with its state.
import { api, t, showError, sideName, seatLabel } from "/assets/common.js";
import { changesList, formatName } from "/assets/ratings.js";
import { decline, rematchState, rematchText, acceptRematch, rematchControls } from "/assets/consent.js";

const $ = (sel) => document.getElementById(sel);

// endScreen answers {render(view)} for the table of match id: token() is the seat's credential,
// load() reads the match again, player the one signed in (or null).
export function endScreen({ id, base, token, load, player, errorBox }) {
  let view = null;
  let watching = null; // the timer that reads a finished match again until its rematch settles

  function renderResult(v) {
    const box = $("result");
    box.hidden = v.status !== "finished";
    renderRematch(v);
    if (box.hidden || v.winner_side === undefined || v.winner_side === null) return;
    $("result-text").textContent = resultText(v);
    $("replay-link").href = `/replay/${encodeURIComponent(id)}`;
    renderRatings(v);
  }

  // renderRatings shows a finished rated match's rating changes, seat by seat. The match is
  // rated shortly after it ends (docs/ratings.md, "The projection"): until its changes come, the
  // match is read again every second, for a minute at most.
  let ratingReads = 0;
  let ratingTimer = null;
  function renderRatings(v) {
    const box = $("rating-box");
    box.hidden = !v.rated;
    if (!v.rated) return;
    const changes = v.rating_changes || [];
    if (changes.length) {
      const f = changes[0].format;
      $("rating-title").textContent = t("rating.changes_of", { format: formatName(f) });
      $("rating-status").textContent = t("rating.each");
      // Drawn again only when the figures changed (a rewind may change them; docs/ratings.md).
      const key = JSON.stringify(changes);
      if ($("rating-list").dataset.key !== key) {
        $("rating-list").replaceChildren(changesList(changes, v.seats));
        $("rating-list").dataset.key = key;
      }
      return;
    }
    $("rating-status").textContent = ratingReads > 60 ? t("rating.not_yet") : t("rating.updating");
    if (!ratingTimer && ratingReads <= 60) {
      ratingTimer = setTimeout(() => {
        ratingTimer = null;
        ratingReads++;
        load();
      }, 1000);
    }
  }

  // renderRematch shows, on the end screen, where the rematch stands for this seat: none yet (offer
  // one), offered by another (accept or decline), taken (go to it, and who it still waits for),
  // or called off. The next match is read as anyone reads it. A spectator may watch it.
  let nextView = null;
  let renders = 0; // an older call, still awaiting the next match, must not draw over a newer
  async function renderRematch(v) {
    const mine = ++renders;
    const finished = v.status === "finished";
    const next = v.next_match_id || "";
    $("next-link").hidden = !(finished && !v.you && next);
    if (next) $("next-link").href = `/play/${encodeURIComponent(next)}`;
    if (!(finished && v.you)) {
      $("rematch-box").replaceChildren();
      $("rematch-note").textContent = "";
      return;
    }
    if (next && (!nextView || nextView.id !== next || nextView.status === "waiting")) {
      const read = await api(`/api/v1/matches/${encodeURIComponent(next)}`).catch(() => null);
      if (mine !== renders) return;
      nextView = read;
    }
    const st = rematchState(v, next ? nextView : null, player);
    const key = JSON.stringify([st.kind, nextView && nextView.version]);
    if ($("rematch-box").dataset.key !== key) {
      const hadFocus = $("rematch-box").contains(document.activeElement);
      $("rematch-box").replaceChildren(...rematchControls(st, { offer: rematch, accept: rematch, refuse: refuseRematch }));
      $("rematch-box").dataset.key = key;
      if (hadFocus && $("rematch-box").firstElementChild) $("rematch-box").firstElementChild.focus();
    }
    $("rematch-note").textContent = rematchText(st);
    $("result").dataset.rematch = st.kind;
    // Without the player's stream, a seat holder learns of a rematch and its answers by reading
    // the match again.
    if ((st.kind === "none" || (nextView && nextView.status === "waiting")) && !watching && !player) {
      let reads = 0;
      watching = setInterval(() => {
        if (++reads > 120 || (nextView && nextView.status !== "waiting")) {
          clearInterval(watching);
          return;
        }
        load();
      }, 3000);
    }
  }

  // rematch offers the next match as this seat, or accepts the offer another made (the same
  // route), keeps the new seat's token, and goes there.
  async function rematch(ev) {
    ev.target.disabled = true;
    try {
      const next = await acceptRematch(base, token());
      location.assign(`/play/${encodeURIComponent(next)}`);
    } catch (err) {
      showError(errorBox, err);
      ev.target.disabled = false;
    }
  }

  // refuseRematch declines the seat the rematch keeps for this seat: the offer ends.
  async function refuseRematch(ev) {
    ev.target.disabled = true;
    try {
      nextView = await decline(view.next_match_id, view.you.seat, token());
      showError(errorBox, null);
      await renderRematch(view);
    } catch (err) {
      showError(errorBox, err);
      ev.target.disabled = false;
    }
  }

  // resultText says a finished match from this seat's side: "You won 50 to 15 against Ada".
  function resultText(v) {
    const won = v.winner_side;
    const resigned = v.seats.filter((s) => s.resigned).map((s) => s.name);
    const how = resigned.length ? ` ${t("result.resigned", { who: resigned.join(", ") })}` : "";
    if (!v.you) {
      const others = v.scores.map((p, side) => [p, side]).filter(([, side]) => side !== won).map(([p]) => p);
      return t("result.spectator", { side: sideName(v.seats, won), mine: v.scores[won], theirs: others.join(", ") }) + how;
    }
    const side = v.seats[v.you.seat].side;
    const vs = v.seats.filter((s) => s.side !== side).map((s) => seatLabel(s, s.seat)).join(", ");
    const theirs = v.scores.filter((_, x) => x !== side).join(", ");
    return t(side === won ? "result.won" : "result.lost", { mine: v.scores[side], theirs, vs }) + how;
  }


  return {
    render(v) {
      view = v;
      renderResult(v);
    },
  };
}
