// The home page's player panel (docs/api.md, "The web client"): sign up or sign in with a key,
// who you are, your matches with your turns first, the challenges to you, and a challenge to
// another player by name or id. While the page is open, the player's stream tells what happens.
import { api, el, showError, saveSeat } from "/assets/common.js";
import { me, signUp, signIn, signOut, rotateKey, findPlayer, hasPlayers, hasRatings, listen, announce } from "/assets/player.js";
import { profileLink } from "/assets/ratings.js";

const $ = (sel) => document.getElementById(sel);
const errorBox = $("error");
let stream = null;
let refreshing = null;

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
    $("show-key").textContent = box.hidden ? "Show my key" : "Hide my key";
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
  // A challenge binds both seats to players, so it may be rated (docs/ratings.md).
  hasRatings().then((ok) => { $("challenge-rated-box").hidden = !ok; });
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
// player's stream while signed in.
function show(keepKey = false) {
  const p = me();
  $("signed-out").hidden = !!p;
  $("signed-in").hidden = !p;
  if (!keepKey) {
    $("key-box").hidden = true;
    $("me-key").textContent = "";
    $("show-key").textContent = "Show my key";
  }
  if (stream) stream.close();
  stream = null;
  if (!p) return;
  $("me-name").replaceChildren("You are ", el("span", { id: "me-link" }, p.name), el("span", { class: "muted small" }, " (player id ", el("code", { id: "me-id", text: p.id }), ")."));
  // With ratings, the name leads to the player's page: its ratings and their charts.
  hasRatings().then((ok) => {
    if (ok && me() && me().id === p.id) $("me-link").replaceChildren(profileLink(p.id, p.name, { id: "me-profile", title: "Your ratings" }));
  });
  mine();
  stream = listen(heard, (st) => { $("me-box").dataset.live = st === "live" ? "1" : "0"; });
}

// heard is one event of the player's stream: the lists are read again (a snapshot, sent again
// after each reconnection, may hold what was missed meanwhile), and a notice says it.
function heard(type, data) {
  clearTimeout(refreshing);
  refreshing = setTimeout(mine, 50);
  if (type !== "snapshot") announce(type, data);
}

function opponents(m) {
  return m.players.filter((x) => x.seat !== m.seat).map((x) => (x.kind === "open" ? "an open seat" : x.name)).join(", ");
}

const table = (m, text) => el("a", { href: `/play/${encodeURIComponent(m.id)}`, text });

// mine reads the player's matches: the turns first, then the challenges, then the rest.
async function mine() {
  const p = me();
  if (!p) return;
  const base = `/api/v1/players/${encodeURIComponent(p.id)}/matches`;
  try {
    const [turns, waiting, all] = await Promise.all([
      api(`${base}?turn=me&limit=100`, { token: p.key }),
      api(`${base}?status=waiting&limit=100`, { token: p.key }),
      api(`${base}?limit=30`, { token: p.key }),
    ]);
    // The player's own seat still open is one kept for it: a challenge, or a rematch offer.
    const challenges = waiting.matches.filter((m) => (m.players[m.seat] || {}).kind === "open");
    const shown = new Set([...turns.matches, ...challenges].map((m) => m.id));
    fill($("my-turns"), turns.matches, (m) => el("li", { "data-id": m.id },
      table(m, `Your turn against ${opponents(m)}`), el("span", { class: "muted", text: ` · ${m.scores.join(" to ")}` })));
    fill($("my-challenges"), challenges, (m) => el("li", { "data-id": m.id },
      `${opponents(m).replace(/(, )?an open seat/g, "") || "Someone"} challenges you${m.target ? `, first to ${m.target}` : ""}: `,
      el("button", { type: "button", class: "primary accept", onclick: (ev) => accept(ev, m), text: "Accept" }), " ",
      table(m, "see the table")));
    fill($("my-matches"), all.matches.filter((m) => !shown.has(m.id)), (m) => el("li", { "data-id": m.id, "data-status": m.status }, ...item(m)));
  } catch (err) {
    // A key replaced meanwhile (from this page) was refused: the new one reads the lists.
    if (err.status === 401 && me() && me().key !== p.key) return;
    if (err.status === 401) {
      signOut();
      show();
      showError(errorBox, new Error(`Your key was refused (${err.message}), so you are signed out in this browser.`));
      return;
    }
    $("my-matches").replaceChildren(el("li", { class: "bad", text: err.message }));
  }
}

// item says one of the player's matches in words, with a link to its table or replay.
function item(m) {
  const vs = opponents(m);
  switch (m.status) {
    case "waiting":
      return [table(m, `Waiting: you and ${vs}`)];
    case "in_progress":
      return [table(m, `Against ${vs}`), el("span", { class: "muted", text: ` · ${m.scores.join(" to ")}` })];
    case "finished": {
      const mySide = m.players.length === 4 && m.scores.length === 2 ? m.seat % 2 : m.seat;
      const won = m.winner_side === mySide;
      return [table(m, `${won ? "Won" : "Lost"} against ${vs}, ${m.scores.join(" to ")}`), " ",
        el("a", { href: `/replay/${encodeURIComponent(m.id)}`, text: "replay" }),
        m.next_match_id ? [" · ", el("a", { href: `/play/${encodeURIComponent(m.next_match_id)}`, text: "rematch" })] : null];
    }
    default:
      return [el("span", { class: "muted", text: `Expired: you and ${vs}` })];
  }
}

function fill(ul, items, draw) {
  ul.replaceChildren(...items.map(draw));
  if (!items.length) ul.append(el("li", { class: "muted", text: "None yet." }));
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
