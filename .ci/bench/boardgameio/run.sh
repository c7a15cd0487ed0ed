#!/bin/sh
# The peer comparison (docs/performance.md, "Against boardgame.io"): durable allfives moves per
# second against boardgame.io 0.50.2's own server in memory, 32 matches each, in alternating
# rounds on loopback, each server driven by a client of its own: boardgame.io by its socket.io
# client (bgio-load.js), allfives by a plain Go HTTP client (allfivesload). Beside the rates it
# prints each server's CPU per move (from /proc) and each client's: on a machine they share,
# what a client spends is CPU its server does not get.
# A check run by hand on a quiet machine: never part of the product, never run by go test.
#   ./run.sh path/to/allfives [rounds] [seconds per round] [matches]
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
rounds=${2:-4} secs=${3:-10} matches=${4:-32}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
[ -d node_modules/boardgame.io ] || npm ci --no-audit --no-fund >/dev/null 2>&1 || npm install --no-audit --no-fund >/dev/null
work=$(mktemp -d)
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
(cd ../../.. && go build -o "$work/allfivesload" ./.ci/bench/boardgameio/allfivesload)
node bgio-server.js 18400 >"$work/bgio.log" 2>&1 &
bgio=$!
pids="$pids $bgio"
"$bin" serve --addr 127.0.0.1:18410 --db "$work/a.db" --sync full --limits off --log-level warn >"$work/allfives.log" 2>&1 &
allfives=$!
pids="$pids $allfives"
for i in $(seq 50); do
  curl -fs http://127.0.0.1:18410/healthz >/dev/null 2>&1 && curl -fs http://127.0.0.1:18401/games >/dev/null 2>&1 && break
  sleep 0.2
done
# ticks: the process's user and system CPU so far, in clock ticks.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
# round SERVER-PID COMMAND...: runs one load round and adds the server's CPU seconds to its line.
round() {
  pid=$1
  shift
  before=$(ticks "$pid")
  line=$("$@")
  after=$(ticks "$pid")
  echo "$line" | sed "s/}\$/,\"server_cpu_s\":$(awk "BEGIN{print ($after - $before) / $hz}")}/" | tee -a "$work/results"
}
for r in $(seq "$rounds"); do
  round "$bgio" node bgio-load.js 18400 "$matches" "$secs"
  round "$allfives" "$work/allfivesload" 127.0.0.1:18410 "$matches" "$secs"
done
node -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const sum = (s) => lines.filter((l) => l.server === s).reduce((a, l) => [a[0] + l.moves, a[1] + l.seconds, a[2] + l.server_cpu_s, a[3] + l.client_cpu_s], [0, 0, 0, 0]);
const [b, a] = [sum("boardgame.io"), sum("allfives")];
const rb = b[0] / b[1], ra = a[0] / a[1];
const cpu = (s, i) => (1000 * s[i] / s[0]).toFixed(3);
console.log(`boardgame.io (memory)   ${rb.toFixed(1)} moves/s; CPU per move: server ${cpu(b, 2)} ms, client ${cpu(b, 3)} ms`);
console.log(`allfives (--sync full)  ${ra.toFixed(1)} moves/s; CPU per move: server ${cpu(a, 2)} ms, client ${cpu(a, 3)} ms`);
console.log(`allfives / boardgame.io ${(ra / rb).toFixed(2)}  (>= 1.5)`);
' "$work/results"
