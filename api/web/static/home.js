// The home page: create a match, and find matches to join, watch or replay.
import { api, el, showError, saveSeat, seededBadge } from "/assets/common.js";
import { setupMe } from "/assets/me.js";
import { hasRatings } from "/assets/player.js";

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

// botStrategies reads the strategies, weakest first, from the document: the enum of bot in the
// schema of a player of the create request, following its references.
const botStrategies = apiDoc.then((doc) => {
  const deref = (schema) => (schema && schema.$ref ? (doc.definitions || {})[schema.$ref.split("/").pop()] : schema);
  const body = ((((doc.paths || {})["/api/v1/matches"] || {}).post || {}).parameters || []).find((p) => p.in === "body");
  const player = deref((((deref(body && body.schema) || {}).properties || {}).players || {}).items);
  const names = ((player && player.properties && player.properties.bot) || {}).enum || [];
  return names.length ? names : FALLBACK_BOTS;
});

const DEFAULTS = [["You", "human"], ["Expert", "bot:expert"], ["Greedy", "bot:greedy"], ["Random", "bot:random"]];

// rows draws a row per seat, counted from 0 as the API counts them, each played by a human, a
// bot of a strategy the server offers, or left open. The form shows once they are drawn.
async function rows() {
  const bots = await botStrategies;
  const kinds = [["human", "Human"], ...bots.slice().reverse().map((b) => [`bot:${b}`, `Bot: ${b}`]), ["open", "Open seat (someone joins)"]];
  const strongest = `bot:${bots[bots.length - 1]}`;
  const kindOf = (kind) => (kinds.some(([v]) => v === kind) ? kind : strongest);
  $("rows").replaceChildren(...DEFAULTS.map(([name, kind], i) =>
    el("div", { class: "player-row", id: `row-${i}` },
      el("label", { for: `name-${i}`, text: `Seat ${i}` }),
      el("input", { id: `name-${i}`, value: name, maxlength: 64, autocomplete: "off" }),
      el("label", { for: `kind-${i}`, class: "visually-hidden", text: `Seat ${i} is played by` }),
      el("select", { id: `kind-${i}`, onchange: () => { $(`name-${i}`).disabled = $(`kind-${i}`).value === "open"; } },
        ...kinds.map(([v, label]) => el("option", { value: v, selected: v === kindOf(kind), text: label }))))));
  count();
  $("create-loading").hidden = true;
  $("create").hidden = false;
}

// count shows as many seat rows as players, and allows partnerships only with four.
function count() {
  const n = Number($("count").value);
  for (let i = 0; i < 4; i++) $(`row-${i}`).hidden = i >= n;
  $("partnerships").disabled = n !== 4;
  if (n !== 4) $("partnerships").checked = false;
}

function request() {
  const n = Number($("count").value);
  const players = [];
  for (let i = 0; i < n; i++) {
    const kind = $(`kind-${i}`).value;
    const name = $(`name-${i}`).value.trim();
    if (kind === "open") players.push({ kind: "open" });
    else if (kind.startsWith("bot:")) players.push({ name, kind: "bot", bot: kind.slice(4) });
    else players.push({ name, kind: "human" });
  }
  const body = { players };
  if ($("partnerships").checked) body.partnerships = true;
  if ($("target").value) body.target = Number($("target").value);
  if ($("seed").value.trim()) body.seed = $("seed").value.trim();
  // Sent only when asked for, so that a server without open seats or a clock still creates.
  if ($("listed").checked) body.listed = true;
  if ($("turn-seconds").value) body.turn_seconds = Number($("turn-seconds").value);
  return body;
}

async function create(ev) {
  ev.preventDefault();
  const button = ev.target.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const res = await api("/api/v1/matches", { method: "POST", body: request() });
    showError(errorBox, null);
    created(res);
    recent();
  } catch (err) {
    showError(errorBox, err);
  } finally {
    button.disabled = false;
  }
}

// created says what to do next. This browser keeps the first human seat's token; the other
// human seats' tokens and the open seats' invites are shown once, to pass on privately.
function created(res) {
  const m = res.match;
  const id = m.id;
  const name = (seat) => m.seats[seat].name || `seat ${seat}`;
  const tokens = res.tokens || [];
  const invites = res.invites || [];
  const box = $("created");
  const parts = [el("h3", { text: "Match created" })];
  if (tokens.length) {
    saveSeat(id, tokens[0].seat, tokens[0].token);
    parts.push(el("p", {}, `You sit at seat ${tokens[0].seat} (${name(tokens[0].seat)}); your token is kept in this browser. `,
      el("a", { href: `/play/${id}`, id: "table-link", text: "Go to your table" })));
  } else if (m.status === "finished") {
    parts.push(el("p", {}, "The bots played it to the end: ", el("a", { href: `/replay/${id}`, id: "replay-link", text: "watch the replay" }), "."));
  } else {
    parts.push(el("p", {}, el("a", { href: `/play/${id}`, id: "table-link", text: "Watch the table" })));
  }
  if (tokens.length > 1) {
    parts.push(el("p", { text: "Give each other player their token privately; they open the table and enter it there:" }),
      el("ul", {}, ...tokens.slice(1).map((t) => el("li", {}, `${name(t.seat)} (seat ${t.seat}): `, el("code", { class: "token", text: t.token })))));
  }
  if (invites.length) {
    parts.push(el("p", { text: "Invites for the open seats: send each link (or its code) privately; whoever opens it joins that seat. The invite rides in the link's #fragment, which browsers never send to a server." }),
      el("ul", {}, ...invites.map((i) => el("li", {}, `Seat ${i.seat}: `,
        el("a", { href: `/play/${id}#invite=${i.seat}.${i.invite}`, class: "invite-link", text: "invite link" }), " ",
        el("code", { class: "token", text: i.invite })))));
  }
  parts.push(el("p", { class: "muted small" }, "Table: ", el("a", { href: `/play/${id}`, text: `/play/${id}` })));
  box.replaceChildren(...parts);
  box.hidden = false;
}

// seeded is the badge of a listed match whose creator chose the deal, after a space.
function seeded(item) {
  return item.seeded ? [" ", seededBadge()] : null;
}

function players(item) {
  return item.players.map((p) => (p.kind === "open" ? "open seat" : p.name)).join(", ");
}

function when(t) {
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleString();
}

// list fills one list of the history, or says why it cannot.
async function list(status, ul, item) {
  try {
    const res = await api(`/api/v1/matches?status=${status}&limit=15`);
    ul.replaceChildren(...res.matches.map(item));
    if (!res.matches.length) ul.append(el("li", { class: "muted", text: "None yet." }));
  } catch (err) {
    ul.replaceChildren(el("li", { class: "bad", text: err.message }));
  }
}

async function recent() {
  if (!(await hasLobby)) {
    $("lobby").hidden = true;
    $("lobby-title").hidden = true;
    $("more").hidden = true;
    for (const o of document.querySelectorAll("option[value=open]")) o.remove();
  } else list("waiting", $("lobby"), (m) => el("li", { "data-id": m.id },
    el("a", { href: `/play/${m.id}`, text: `Join: ${players(m)}` }),
    el("span", { class: "muted", text: ` · target ${m.target ?? "default"}${m.turn_seconds ? ` · ${m.turn_seconds} s a turn` : ""}` }),
    seeded(m)));
  list("in_progress", $("live-matches"), (m) => el("li", { "data-id": m.id },
    el("a", { href: `/play/${m.id}`, text: `${players(m)}: ${m.scores.join(" to ")}` }),
    el("span", { class: "muted", text: ` · started ${when(m.created_at)}` }), seeded(m)));
  list("finished", $("finished"), (m) => el("li", { "data-id": m.id },
    el("a", { href: `/replay/${m.id}`, text: `${players(m)}: ${m.scores.join(" to ")}` }),
    el("span", { class: "muted", text: ` · ${when(m.updated_at)}` }), seeded(m)));
}

$("count").addEventListener("change", count);
$("create").addEventListener("submit", create);
rows().then(recent);
setupMe();
hasRatings().then((ok) => { $("site-nav").hidden = !ok; });
