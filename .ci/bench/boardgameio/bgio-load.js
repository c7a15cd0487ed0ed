// node bgio-load.js PORT MATCHES SECONDS: MATCHES matches of the trivial game, each played by
// its two players' socket.io clients as fast as the server answers, for SECONDS; prints the
// moves per second. A move counts once both clients have seen the state it made.
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Trivial } = require('./game');

const [port, matches, seconds] = [Number(process.argv[2]), Number(process.argv[3]), Number(process.argv[4])];
const lobby = `http://127.0.0.1:${port + 1}`;

async function post(path, body) {
  const res = await fetch(lobby + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function newMatch() {
  const { matchID } = await post('/games/trivial/create', { numPlayers: 2 });
  const seats = [];
  for (const playerID of ['0', '1']) {
    const { playerCredentials } = await post(`/games/trivial/${matchID}/join`, { playerID, playerName: `p${playerID}` });
    seats.push({ playerID, credentials: playerCredentials });
  }
  const seen = [0, 0];
  const clients = seats.map(({ playerID, credentials }, i) => {
    const c = Client({ game: Trivial, multiplayer: SocketIO({ server: `http://127.0.0.1:${port}`, socketOpts: { transports: ['websocket'] } }), matchID, playerID, credentials, debug: false });
    let acted = -1;
    c.subscribe((state) => {
      if (!state) return;
      seen[i] = state._stateID;
      // Move when it is this seat's turn in a state it has not moved in yet.
      if (running && state.ctx.currentPlayer === playerID && acted < state._stateID) {
        acted = state._stateID;
        c.moves.play();
      }
    });
    return c;
  });
  return { clients, moved: () => Math.min(seen[0], seen[1]) };
}

let running = false;

(async () => {
  const all = [];
  for (let i = 0; i < matches; i++) all.push(await newMatch());
  all.forEach((m) => m.clients.forEach((c) => c.start()));
  await new Promise((r) => setTimeout(r, 500)); // every client connected and synced
  running = true;
  const start = all.map((m) => m.moved());
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  all.forEach((m) => m.clients.forEach((c) => { const s = c.getState(); if (s && s.ctx.currentPlayer === c.playerID) c.moves.play(); }));
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const moves = all.reduce((n, m, i) => n + m.moved() - start[i], 0);
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  running = false;
  all.forEach((m) => m.clients.forEach((c) => c.stop()));
  const used = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ server: 'boardgame.io', matches, seconds: elapsed, moves, moves_per_s: moves / elapsed, client_cpu_s: (used.user + used.system) / 1e6 }));
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
