// The home page: create a match, and find matches to join, watch or replay. A player signed in
// sits in its own seat of a new match (bound to it by its key), which may then be rated.
import { api, el, t, when, showError, saveSeat, seededBadge, problemText } from "/assets/common.js";
import { setupMe } from "/assets/me.js";
import { me, hasRatings } from "/assets/player.js";
import { pagedList } from "/assets/paging.js";

const $ = (sel) => document.getElementById(sel);
const errorBox = $("error");
// The API's own document (docs/api.md), as JSON (the Swagger document Swagger UI reads): which
// bot strategies this server offers, and whether it has open seats and a lobby, so the form
// never offers what the server would refuse.
const apiDoc = fetch("/swagger/doc.json")
  .then((r) => (r.ok ? r.json() : {}))
  .catch(() => ({}));

// hasLobby says whether this server has open seats and a lobby, so a server without them is
// never asked for a status it does not know.
const hasLobby = apiDoc.then((doc) => Boolean(doc.paths && doc.paths["/api/v1/matches/{id}/seats/{seat}/join"]));

// FALLBACK_BOTS are offered only when the document cannot be read or names no strategy.
const FALLBACK_BOTS = ["random", "greedy", "pimc", "expert"];

// botStrategies reads the strategies from the document: the enum of bot in the schema of a
// player of the create request, following its references. The enum lists them weakest first
// as the bots' ladder measured them (bot.WeakestFirst, written into it by go generate), so
// the form's order follows the ladder.
const botStrategies = apiDoc.then((doc) => {
  const deref = (schema) => (schema && schema.$ref ? (doc.definitions || {})[schema.$ref.split("/").pop()] : schema);
  const body = ((((doc.paths || {})["/api/v1/matches"] || {}).post || {}).parameters || []).find((p) => p.in === "body");
  const player = deref((((deref(body && body.schema) || {}).properties || {}).players || {}).items);
  const names = ((player && player.properties && player.properties.bot) || {}).enum || [];
  return names.length ? names : FALLBACK_BOTS;
});

// DEFAULTS are the seats as the form first shows them: the first is yours ("me" once signed
// in), the others bots, strongest first.
const DEFAULTS = [["default.you", "human"], ["default.expert", "bot:expert"], ["default.greedy", "bot:greedy"], ["default.random", "bot:random"]];

// rows draws a row per seat, counted from 0 as the API counts them, each played by you (signed
// in), a human, a bot of a strategy the server offers, or left open. The form shows once they
// are drawn; they are drawn again when the player signs in or out.
async function rows() {
  const bots = await botStrategies;
  const p = me();
  const kinds = [...(p ? [["me", t("kind.me", { name: p.name })]] : []), ["human", t("kind.human_option")],
    ...bots.slice().reverse().map((b) => [`bot:${b}`, t("kind.bot_option", { bot: b })]), ["open", t("kind.open_option")]];
  const strongest = `bot:${bots[bots.length - 1]}`;
  const kindOf = (kind, i) => (i === 0 && p ? "me" : kinds.some(([v]) => v === kind) ? kind : strongest);
  const named = (i) => $(`name-${i}`).disabled = ["open", "me"].includes($(`kind-${i}`).value);
  $("rows").replaceChildren(...DEFAULTS.map(([name, kind], i) =>
    el("div", { class: "player-row", id: `row-${i}` },
      el("label", { for: `name-${i}`, text: t("seat.label", { n: i }) }),
      el("input", { id: `name-${i}`, value: i === 0 && p ? p.name : t(name), maxlength: 64, autocomplete: "off" }),
      el("label", { for: `kind-${i}`, class: "visually-hidden", text: t("seat.played_by", { n: i }) }),
      el("select", { id: `kind-${i}`, onchange: () => { named(i); rated(); } },
        ...kinds.map(([v, label]) => el("option", { value: v, selected: v === kindOf(kind, i), text: label }))))));
  for (let i = 0; i < 4; i++) named(i);
  count();
  rated();
  $("create-loading").hidden = true;
  $("create").hidden = false;
}

// rated offers a rated match to a player signed in on a server with ratings; a rated match
// needs every seat a player (you) or a bot, so the box says so when another seat is not.
let ratings = false;
function rated() {
  const p = me();
  $("rated-box").hidden = !(p && ratings);
  const n = Number($("count").value);
  const fit = [...Array(n).keys()].every((i) => ["me"].includes($(`kind-${i}`).value) || $(`kind-${i}`).value.startsWith("bot:"));
  $("rated-note").textContent = fit ? t("create.rated_note") : t("create.rated_unfit");
  $("create-rated").disabled = !fit;
  if (!fit) $("create-rated").checked = false;
}

// count shows as many seat rows as players, and allows partnerships only with four.
function count() {
  const n = Number($("count").value);
  for (let i = 0; i < 4; i++) $(`row-${i}`).hidden = i >= n;
  $("partnerships").disabled = n !== 4;
  if (n !== 4) $("partnerships").checked = false;
  rated();
}

function request() {
  const n = Number($("count").value);
  const players = [];
  let mine = false;
  for (let i = 0; i < n; i++) {
    const kind = $(`kind-${i}`).value;
    const name = $(`name-${i}`).value.trim();
    if (kind === "open") players.push({ kind: "open" });
    else if (kind === "me") {
      players.push({ kind: "human", player: "me" }); // the seat is bound to the key's player
      mine = true;
    } else if (kind.startsWith("bot:")) players.push({ name, kind: "bot", bot: kind.slice(4) });
    else players.push({ name, kind: "human" });
  }
  const body = { players };
  if ($("partnerships").checked) body.partnerships = true;
  if ($("target").value) body.target = Number($("target").value);
  if ($("seed").value.trim()) body.seed = $("seed").value.trim();
  // Sent only when asked for, so that a server without open seats or a clock still creates.
  if ($("listed").checked) body.listed = true;
  if ($("turn-seconds").value) body.turn_seconds = Number($("turn-seconds").value);
  if (!$("rated-box").hidden && $("create-rated").checked) body.rated = true;
  return { body, mine };
}

async function create(ev) {
  ev.preventDefault();
  const button = ev.target.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const { body, mine } = request();
    if (mine && body.players.filter((x) => x.player === "me").length > 1) throw new Error(t("create.one_me"));
    const res = await api("/api/v1/matches", { method: "POST", body, token: mine ? me().key : "" });
    showError(errorBox, null);
    created(res, body);
    finished.reload();
    recent();
  } catch (err) {
    showError(errorBox, err);
  } finally {
    button.disabled = false;
  }
}

// created says what to do next. This browser keeps the token of its seat (the player's own,
// else the first human seat); the other human seats' tokens and the open seats' invites are
// shown once, to pass on privately.
function created(res, body) {
  const m = res.match;
  const id = m.id;
  const name = (seat) => m.seats[seat].name || t("seat.n", { n: seat });
  const mineAt = body.players.findIndex((x) => x.player === "me");
  const all = res.tokens || [];
  const own = all.find((x) => x.seat === mineAt) || all[0];
  const tokens = own ? [own, ...all.filter((x) => x !== own)] : [];
  const invites = res.invites || [];
  const box = $("created");
  const parts = [el("h3", { text: t("created.title") })];
  if (tokens.length) {
    saveSeat(id, tokens[0].seat, tokens[0].token);
    parts.push(el("p", {}, t("created.you_sit", { n: tokens[0].seat, name: name(tokens[0].seat) }), " ",
      el("a", { href: `/play/${id}`, id: "table-link", text: t("created.go") })));
  } else if (m.status === "finished") {
    parts.push(el("p", {}, t("created.bots_played"), " ", el("a", { href: `/replay/${id}`, id: "replay-link", text: t("created.watch_replay") })));
  } else {
    parts.push(el("p", {}, el("a", { href: `/play/${id}`, id: "table-link", text: t("created.watch") })));
  }
  if (tokens.length > 1) {
    parts.push(el("p", { text: t("created.tokens") }),
      el("ul", {}, ...tokens.slice(1).map((x) => el("li", {}, `${t("created.seat_of", { name: name(x.seat), n: x.seat })}: `, el("code", { class: "token", text: x.token })))));
  }
  if (invites.length) {
    parts.push(el("p", { text: t("created.invites") }),
      el("ul", {}, ...invites.map((i) => el("li", {}, `${t("seat.label", { n: i.seat })}: `,
        el("a", { href: `/play/${id}#invite=${i.seat}.${i.invite}`, class: "invite-link", text: t("created.invite_link") }), " ",
        el("code", { class: "token", text: i.invite })))));
  }
  parts.push(el("p", { class: "muted small" }, `${t("created.table")}: `, el("a", { href: `/play/${id}`, text: `/play/${id}` })));
  box.replaceChildren(...parts);
  box.hidden = false;
}

// tournamentDeals are the ids of the matches of the duplicate rounds of the running and
// finished tournaments, read again when older than a few seconds: a seeded match among them
// was dealt by the server for its round, not by a creator.
let deals = null;
let dealsAt = 0;
function tournamentDeals() {
  if (deals && Date.now() - dealsAt < 5000) return deals;
  dealsAt = Date.now();
  deals = Promise.all(["running", "finished"].map((s) => api(`/api/v1/tournaments?status=${s}&limit=50`).catch(() => ({ tournaments: [] }))))
    .then((lists) => new Set(lists.flatMap((l) => l.tournaments.flatMap((tv) => tv.rounds.filter((r) => r.commitment)
      .flatMap((r) => r.tables.map((tb) => tb.match))))));
  return deals;
}

// seeded is the badge of a listed seeded match, after a space: who chose its deal. A match
// whose every seat is a lasting player or a bot may be a tournament's (a tournament seats no
// one else), and its badge is shown once that is known.
function seeded(item) {
  if (!item.seeded) return null;
  const badge = seededBadge();
  if (item.players.every((p) => p.player || p.kind === "bot")) {
    badge.hidden = true;
    tournamentDeals().then((ids) => {
      if (ids.has(item.id)) {
        badge.textContent = t("table.tour_deal_list");
        badge.title = t("table.tour_deal_list_title");
      }
      badge.hidden = false;
    });
  }
  return [" ", badge];
}

function players(item) {
  return item.players.map((p) => (p.kind === "open" ? (p.reserved_for ? t("kind.kept", { who: p.reserved_for.name }) : t("kind.open")) : p.name)).join(", ");
}

// scoreline names each seat's side with its score, "Ada 50, Bo 15".
function scoreline(m) {
  if (m.scores.length === m.players.length) return m.players.map((p, i) => `${p.name || t("seat.n", { n: i })} ${m.scores[i]}`).join(", ");
  return m.scores.join(" – ");
}

// list fills one list of the history, or says why it cannot.
async function list(status, ul, item) {
  try {
    const res = await api(`/api/v1/matches?status=${status}&limit=15`);
    ul.replaceChildren(...res.matches.map(item));
    if (!res.matches.length) ul.append(el("li", { class: "muted", text: t("none_yet") }));
  } catch (err) {
    ul.replaceChildren(el("li", { class: "bad", text: problemText(err) }));
  }
}

// finished is the list of finished matches, newest first, with older ones a page at a time.
const finished = pagedList($("finished"), (cursor) => api(`/api/v1/matches?status=finished&limit=15${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`),
  (m) => el("li", { "data-id": m.id },
    el("a", { href: `/replay/${m.id}`, text: `${players(m)}: ${scoreline(m)}` }),
    el("span", { class: "muted", text: ` · ${when(m.updated_at)}` }), seeded(m)), "more-finished");

async function recent() {
  if (!(await hasLobby)) {
    $("lobby").hidden = true;
    $("lobby-title").hidden = true;
    $("more").hidden = true;
    for (const o of document.querySelectorAll("option[value=open]")) o.remove();
  } else list("waiting", $("lobby"), (m) => el("li", { "data-id": m.id },
    el("a", { href: `/play/${m.id}`, text: t("lobby.join", { players: players(m) }) }),
    el("span", { class: "muted", text: ` · ${t("lobby.target", { target: m.target ?? t("lobby.default") })}${m.turn_seconds ? ` · ${t("lobby.clock", { n: m.turn_seconds })}` : ""}` }),
    seeded(m)));
  list("in_progress", $("live-matches"), (m) => el("li", { "data-id": m.id },
    el("a", { href: `/play/${m.id}`, text: `${players(m)}: ${scoreline(m)}` }),
    el("span", { class: "muted", text: ` · ${t("lobby.started", { when: when(m.created_at) })}` }), seeded(m)));
}

$("count").addEventListener("change", count);
$("create").addEventListener("submit", create);
addEventListener("allfives:player", () => rows());
hasRatings().then((ok) => {
  ratings = ok;
  $("leaderboard-link").hidden = !ok;
  if (!$("create").hidden) rated();
});
rows().then(() => {
  recent();
  finished.reload();
});
setupMe();
