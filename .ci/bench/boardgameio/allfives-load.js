// node allfives-load.js ADDR MATCHES SECONDS: MATCHES clients, each playing its own match
// against a random bot as allfives bench does, a move being a GET of the seat's state and a
// POST of its first legal move; prints the moves per second.
const [addr, matches, seconds] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const base = `http://${addr}/api/v1`;

async function call(method, path, token, body) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(base + path, { method, headers, body: body && JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function create() {
  const res = await call('POST', '/matches', '', {
    players: [{ name: 'bench', kind: 'human' }, { name: 'bot', kind: 'bot', bot: 'random' }], target: 1000,
  });
  return { id: res.match.id, token: res.tokens[0].token };
}

async function play(deadline) {
  let m = await create();
  let moves = 0;
  while (Date.now() < deadline) {
    const v = await call('GET', `/matches/${m.id}`, m.token);
    if (v.status !== 'in_progress' || !v.legal_moves || v.legal_moves.length === 0) {
      m = await create();
      continue;
    }
    const { action, tile, end } = v.legal_moves[0];
    await call('POST', `/matches/${m.id}/moves`, m.token, { action, tile, end });
    moves++;
  }
  return moves;
}

(async () => {
  const t0 = Date.now();
  const counts = await Promise.all(Array.from({ length: matches }, () => play(t0 + seconds * 1000)));
  const elapsed = (Date.now() - t0) / 1000;
  const moves = counts.reduce((a, b) => a + b, 0);
  console.log(JSON.stringify({ server: 'allfives', matches, seconds: elapsed, moves, moves_per_s: moves / elapsed }));
})().catch((e) => { console.error(e); process.exit(1); });
