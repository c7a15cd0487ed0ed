// The home page's player panel (docs/api-web.md, "The web client"): sign up or sign in with a key,
// who you are, your turns first, the challenges to you, the offers waiting for someone's
// answer, and your matches (said from your side, a page at a time). While the page is open,
// the player's stream tells what happens.
import { api, el, t, showError, saveSeat } from "/assets/common.js";
import { me, signUp, signIn, signOut, rotateKey, findPlayer, hasPlayers, hasRatings, listen, announce } from "/assets/player.js";
import { profileLink } from "/assets/ratings.js";
import { decline, withdraw } from "/assets/consent.js";
import { pagedList } from "/assets/paging.js";
import { setupPlayNow, seekMatched } from "/assets/seek.js";

const $ = (sel) => document.getElementById(sel);
const errorBox = $("error");
let stream = null;
let refreshing = null;
let pages = null;

// setupMe shows the panel on a server with players.
export async function setupMe() {
  if (!(await hasPlayers())) return;
  $("me-box").hidden = false;
  $("signup").addEventListener("submit", (ev) => submit(ev, () => signUp($("signup-name").value.trim())));
  $("signin").addEventListener("submit", (ev) => {
    const key = $("key-input").value.trim();
    $("key-input").value = "";
    return submit(ev, () => signIn(key));
  });
  $("signout").addEventListener("click", () => {
    signOut();
    show();
  });
  $("show-key").addEventListener("click", () => {
    const box = $("key-box");
    box.hidden = !box.hidden;
    $("me-key").textContent = box.hidden ? "" : me().key; // in the page only while asked for
    $("show-key").textContent = box.hidden ? t("me.show_key") : t("me.hide_key");
  });
  $("rotate-key").addEventListener("click", async () => {
    try {
      const p = await rotateKey();
      $("me-key").textContent = p.key;
      showError(errorBox, null);
      show(true);
    } catch (err) {
      showError(errorBox, err);
    }
  });
  $("challenge").addEventListener("submit", challenge);
  setupPlayNow(errorBox);
  // A challenge binds both seats to players, so it may be rated (docs/ratings.md).
  hasRatings().then((ok) => { $("challenge-rated-box").hidden = !ok; });
  pages = pagedList($("my-matches"), (cursor) => {
    const p = me();
    const q = new URLSearchParams({ limit: "15" });
    if (cursor) q.set("cursor", cursor);
    return api(`/api/v1/players/${encodeURIComponent(p.id)}/matches?${q}`, { token: p.key });
  }, (m) => el("li", { "data-id": m.id, "data-status": m.status }, ...item(m)), "more-mine",
  (m) => m.status !== "waiting" && !(m.turn === m.seat && m.status === "in_progress"));
  show();
}

// submit runs a sign-up or sign-in from a form and shows the player, or the problem.
async function submit(ev, act) {
  ev.preventDefault();
  const button = ev.target.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    await act();
    showError(errorBox, null);
    show();
  } catch (err) {
    showError(errorBox, err);
  } finally {
    button.disabled = false;
  }
}

// show draws the panel for the player signed in, or the forms to become one, and follows the
// player's stream while signed in. The page hears of the change ("allfives:player").
function show(keepKey = false) {
  const p = me();
  $("signed-out").hidden = !!p;
  $("signed-in").hidden = !p;
  if (!keepKey) {
    $("key-box").hidden = true;
    $("me-key").textContent = "";
    $("show-key").textContent = t("me.show_key");
  }
  dispatchEvent(new Event("allfives:player"));
  if (stream) stream.close();
  stream = null;
  if (!p) return;
  $("me-name").replaceChildren(`${t("me.you_are")} `, el("span", { id: "me-link" }, p.name), el("span", { class: "muted small" }, ` (${t("me.player_id")} `, el("code", { id: "me-id", text: p.id }), ")."));
  // With ratings, the name leads to the player's page: its ratings and their charts.
  hasRatings().then((ok) => {
    if (ok && me() && me().id === p.id) $("me-link").replaceChildren(profileLink(p.id, p.name, { id: "me-profile", title: t("me.your_ratings") }));
  });
  mine();
  stream = listen(heard, (st) => { $("me-box").dataset.live = st === "live" ? "1" : "0"; });
}

// heard is one event of the player's stream: the lists are read again (a snapshot, sent again
// after each reconnection, may hold what was missed meanwhile), and a notice says it.
function heard(type, data) {
  if (type === "matched") seekMatched(data);
  clearTimeout(refreshing);
  refreshing = setTimeout(mine, 50);
  if (type !== "snapshot") announce(type, data);
}

// opponents names the match's other seats: a seat kept for someone by that one's name.
function opponents(m) {
  return m.players.filter((x) => x.seat !== m.seat)
    .map((x) => (x.kind === "open" ? (x.reserved_for ? x.reserved_for.name : t("me.an_open_seat")) : x.name)).join(", ");
}

const table = (m, text) => el("a", { href: `/play/${encodeURIComponent(m.id)}`, text });

// mine reads the player's matches: the turns first, then the challenges and offers, then the
// rest a page at a time.
async function mine() {
  const p = me();
  if (!p) return;
  const base = `/api/v1/players/${encodeURIComponent(p.id)}/matches`;
  try {
    const [turns, waiting] = await Promise.all([
      api(`${base}?turn=me&limit=100`, { token: p.key }),
      api(`${base}?status=waiting&limit=100`, { token: p.key }),
    ]);
    // The player's own seat still open is one kept for it: a challenge, or a rematch offer.
    const isChallenge = (m) => (m.players[m.seat] || {}).kind === "open";
    const challenges = waiting.matches.filter(isChallenge);
    const offers = waiting.matches.filter((m) => !isChallenge(m));
    fill($("my-turns"), turns.matches, (m) => el("li", { "data-id": m.id },
      table(m, t("me.your_turn_vs", { vs: opponents(m) })), el("span", { class: "muted", text: ` · ${scoreFromSide(m)}` })));
    fill($("my-challenges"), challenges, (m) => {
      const from = m.players.filter((x) => x.seat !== m.seat && x.kind === "human").map((x) => x.name).join(", ") || t("rematch.someone");
      return el("li", { "data-id": m.id },
        `${t(m.target ? "me.challenges_you_to" : "me.challenges_you", { from, target: m.target })} `,
        el("button", { type: "button", class: "primary accept", onclick: (ev) => accept(ev, m), text: t("me.accept") }), " ",
        el("button", { type: "button", class: "decline", onclick: (ev) => act(ev, () => decline(m.id, m.seat, me().key)), text: t("play.decline") }), " ",
        table(m, t("me.see_table")));
    });
    fill($("my-offers"), offers, (m) => el("li", { "data-id": m.id },
      table(m, waitText(m)), " ",
      el("button", { type: "button", class: "withdraw", onclick: (ev) => act(ev, () => withdraw(m.id, me().key)), text: t("me.withdraw") })));
    await pages.reload();
  } catch (err) {
    // A key replaced meanwhile (from this page) was refused: the new one reads the lists.
    if (err.status === 401 && me() && me().key !== p.key) return;
    if (err.status === 401) {
      signOut();
      show();
      showError(errorBox, new Error(t("me.key_refused")));
      return;
    }
    showError(errorBox, err);
  }
}

// waitText says whom a waiting match of the player waits for: "Waiting for Bo: Bo has not
// answered yet."
function waitText(m) {
  const kept = m.players.filter((x) => x.kind === "open" && x.reserved_for).map((x) => x.reserved_for.name);
  if (!kept.length) return t("me.waiting_open", { vs: opponents(m) });
  return `${t("wait.for", { who: kept.join(", ") })} ${kept.map((who) => t("wait.not_answered", { who })).join(" ")}`;
}

// mySide is the player's side in a history item: its seat, or seat mod 2 in partnerships.
const mySide = (m) => (m.players.length === 4 && m.scores.length === 2 ? m.seat % 2 : m.seat);

// scoreFromSide says the scores from the player's side: its own first ("50 to 15").
function scoreFromSide(m) {
  const side = mySide(m);
  return t("me.score", { mine: m.scores[side], theirs: m.scores.filter((_, i) => i !== side).join(", ") });
}

// item says one of the player's matches in words, from its side, with a link to its table or
// replay: "Won 50 to 15 against Ada".
function item(m) {
  const vs = opponents(m);
  switch (m.status) {
    case "in_progress":
      return [table(m, t("me.against", { vs })), el("span", { class: "muted", text: ` · ${scoreFromSide(m)}` })];
    case "finished": {
      const side = mySide(m);
      const vars = { mine: m.scores[side], theirs: m.scores.filter((_, i) => i !== side).join(", "), vs };
      return [table(m, t(m.winner_side === side ? "me.won" : "me.lost", vars)), " ",
        el("a", { href: `/replay/${encodeURIComponent(m.id)}`, text: t("me.replay") }),
        m.next_match_id ? [" · ", el("a", { href: `/play/${encodeURIComponent(m.next_match_id)}`, text: t("me.rematch") })] : null];
    }
    case "cancelled":
      return [el("span", { class: "muted", text: t("me.cancelled", { vs }) })];
    default:
      return [el("span", { class: "muted", text: t("me.expired", { vs }) })];
  }
}

function fill(ul, items, draw) {
  ul.replaceChildren(...items.map(draw));
  if (!items.length) ul.append(el("li", { class: "muted", text: t("none_yet") }));
}

// act runs a decline or a withdrawal from a list, then reads the lists again.
async function act(ev, call) {
  ev.target.disabled = true;
  try {
    await call();
    showError(errorBox, null);
  } catch (err) {
    showError(errorBox, err);
  }
  mine();
}

// accept takes the seat a challenge keeps for the player, with its key, and goes to the table.
async function accept(ev, m) {
  ev.target.disabled = true;
  try {
    const res = await api(`/api/v1/matches/${encodeURIComponent(m.id)}/seats/${m.seat}/join`, { method: "POST", body: {}, token: me().key });
    saveSeat(m.id, res.seat, res.token);
    location.assign(`/play/${encodeURIComponent(m.id)}`);
  } catch (err) {
    showError(errorBox, err);
    ev.target.disabled = false;
    mine();
  }
}

// challenge makes a match of the player and another, whose seat waits for that player's key.
async function challenge(ev) {
  ev.preventDefault();
  const button = ev.target.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const them = await findPlayer($("opponent").value);
    const body = { players: [{ kind: "human", player: "me" }, { kind: "human", player: them.id }] };
    if ($("challenge-target").value) body.target = Number($("challenge-target").value);
    if ($("challenge-rated").checked && !$("challenge-rated-box").hidden) body.rated = true; // both seats are players
    const res = await api("/api/v1/matches", { method: "POST", body, token: me().key });
    const own = (res.tokens || [])[0]; // the creator's seat, bound to the player
    if (own) saveSeat(res.match.id, own.seat, own.token);
    showError(errorBox, null);
    location.assign(`/play/${encodeURIComponent(res.match.id)}`);
  } catch (err) {
    showError(errorBox, err);
    button.disabled = false;
  }
}

