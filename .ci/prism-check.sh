#!/usr/bin/env bash
# The contract check with a strict validator: a real server (a fresh SQLite file) behind
# Stoplight Prism's validating proxy, driven through every route of openapi.yaml by the session
# below. Prism checks each answer against openapi.yaml and names what breaks it in the
# sl-violations header (and in its log). The check fails on any violation, on any answer whose
# status is not the one the session expects, and on any path and method of openapi.yaml that the
# session did not call: a new route needs a block here (docs/development.md, "The contract").
#
# Prism runs without --errors: with it, Prism replaces an answer that breaks the contract by its
# own 500, so the session loses the ids and tokens it goes on with and stops counting at the
# first violation. Without it every answer is checked and every violation counted.
# Request validation is off: the session sends bad requests on purpose, and their answers (the
# server's problems) are what is checked.
set -euo pipefail
cd "$(dirname "$0")/.."

PRISM="@stoplight/prism-cli@5.14.2" # the newest whose engines take Node 20
doc="${PRISM_DOC:-openapi.yaml}"     # another document to hold the server to, to try the check

for tool in curl jq; do
	if ! command -v "$tool" >/dev/null; then
		echo "== installing $tool"
		sudo=""
		if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
		$sudo apt-get update -qq
		$sudo apt-get install -y -qq "$tool" >/dev/null
	fi
done

work="$(mktemp -d)"
pids=()
cleanup() {
	# npx leads a process group of its own (setsid), so killing the group ends its node too.
	for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

# free_port prints a TCP port nothing on 127.0.0.1 listens on.
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 40000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
}

# wait_for waits until a URL answers at all.
wait_for() {
	for _ in $(seq 1 120); do
		curl -s -o /dev/null "$1" && return 0
		sleep 0.5
	done
	echo "$1 never answered"
	return 1
}

echo "== building the server"
go build -o "$work/allfives" ./cmd/allfives
api_port="$(free_port)"
prism_port="$(free_port)"
server="http://127.0.0.1:$api_port"
base="http://127.0.0.1:$prism_port"

# Streams are capped low (one per address, two in all) so that both refusals can be provoked.
# The limits are serve's defaults, which the session stays under, but for the stream tickets:
# three, so that the fourth is refused (docs/operations.md, "Limits").
"$work/allfives" serve --addr "127.0.0.1:$api_port" --db "$work/check.db" --sweep-interval 200ms \
	--max-streams 2 --max-streams-per-client 1 --limit-tickets 3/1h >"$work/server.log" 2>&1 &
pids+=($!)
# Node's own header limit (16 KiB) is raised past the server's (64 KiB) so the server's 431
# reaches Prism to be checked.
# npx runs Prism as a child of its own: setsid puts both in one group for cleanup to end.
NODE_OPTIONS="--max-http-header-size=262144" setsid npx --yes "$PRISM" proxy "$doc" "$server" \
	--port "$prism_port" --validate-request false >"$work/prism.log" 2>&1 &
pids+=($!)
wait_for "$server/healthz"
wait_for "$base/healthz"

violations=0
failures=0
calls=0
called="$work/called" # "METHOD /path/{template}" of each route the session called
: >"$called"
route_now=""

# route names the operation the calls below it are for, as openapi.yaml spells it.
route() {
	route_now="$1 $2"
	echo "$route_now" >>"$called"
}

# check EXPECTED URL-PATH [curl arguments...] sends the current route's method through Prism
# and checks the answer: its status, and that Prism found nothing wrong with it. The answer's
# body is left in $body, its headers in $headers.
check() {
	local want="$1" path="$2"
	shift 2
	local method="${route_now%% *}"
	calls=$((calls + 1))
	local status
	status="$(curl -sS -o "$work/body" -D "$work/headers" -X "$method" -w '%{http_code}' "$@" "$base$path")" || status="curl failed"
	body="$(cat "$work/body")"
	headers="$(tr -d '\r' <"$work/headers")"
	# Only the answer's violations count: the request ones are the session's bad requests.
	local found
	found="$(sed -n 's/^sl-violations: //Ip' <<<"$headers" | jq -c '[.[] | select(.location[0] == "response")]')"
	if [ -n "$found" ] && [ "$found" != "[]" ]; then
		local n
		n="$(jq length <<<"$found")"
		violations=$((violations + n))
		echo "VIOLATION ($n): $method $path -> $status"
		jq -c '.[]' <<<"$found" | sed 's/^/    /'
	fi
	if [ "$status" != "$want" ]; then
		failures=$((failures + 1))
		echo "FAIL: $method $path -> $status, want $want"
		head -c 600 "$work/body"
		echo
	elif grep -q 'stoplight.io/prism/errors' <<<"$body"; then
		failures=$((failures + 1))
		echo "FAIL: $method $path -> Prism answered itself: $(head -c 300 <<<"$body")"
	fi
}

# direct EXPECTED-STATUS CODE METHOD URL-PATH checks an answer off the document's routes (Prism
# answers those itself) straight from the server: a problem with that code.
direct() {
	calls=$((calls + 1))
	local status ct
	status="$(curl -sS -o "$work/body" -D "$work/headers" -X "$3" -w '%{http_code}' "$server$4")"
	ct="$(tr -d '\r' <"$work/headers" | sed -n 's/^content-type: //Ip')"
	if [ "$status" != "$1" ] || [ "$ct" != "application/problem+json" ] || [ "$(jq -r .code "$work/body")" != "$2" ]; then
		failures=$((failures + 1))
		echo "FAIL: $3 $4 (direct) -> $status $ct $(head -c 300 "$work/body"), want $1 $2"
	fi
}

json=(-H "Content-Type: application/json")
auth() { echo "Authorization: Bearer $1"; }
field() { jq -r "$1" <<<"$body"; }
missing="00000000000000000000000000000000"
seed="$(sed -n 's/^const ExampleSeed = "\([0-9a-f]*\)"/\1/p' api/server_openapi.go)"
two_humans='{"players":[{"name":"Ada","kind":"human"},{"name":"Bo","kind":"human"}]'

echo "== the session, through Prism"

# ---- POST /api/v1/matches
route POST /api/v1/matches
check 201 /api/v1/matches "${json[@]}" -d "$two_humans,\"seed\":\"$seed\",\"target\":50}"
live="$(field .match.id)" ada="$(field '.tokens[0].token')" bo="$(field '.tokens[1].token')"
check 201 /api/v1/matches "${json[@]}" -d '{"players":[{"name":"B1","kind":"bot","bot":"greedy"},{"name":"B2","kind":"bot","bot":"random"},{"name":"B3","kind":"bot","bot":"expert"}],"target":50}'
done_id="$(field .match.id)"
check 201 /api/v1/matches "${json[@]}" -d '{"players":[{"name":"Ada","kind":"human"},{"kind":"open"},{"kind":"open"}],"listed":true,"turn_seconds":60}'
lobby="$(field .match.id)" host="$(field '.tokens[0].token')"
check 201 /api/v1/matches "${json[@]}" -d '{"players":[{"name":"Ada","kind":"human"},{"kind":"open"}]}'
private="$(field .match.id)"
check 400 /api/v1/matches "${json[@]}" -d '{"players":[{"name":"Ada","kind":"human"}]}'
check 400 /api/v1/matches "${json[@]}" -d "{\"players\":[{\"name\":\"Ada\",\"kind\":\"human\"},{\"kind\":\"open\"}],\"seed\":\"$seed\"}"
check 400 /api/v1/matches "${json[@]}" -d '{"players":'
check 413 /api/v1/matches "${json[@]}" -d "{\"players\":[{\"name\":\"$(head -c 70000 /dev/zero | tr '\0' x)\",\"kind\":\"human\"}]}"
check 415 /api/v1/matches -H "Content-Type: text/plain" -d "$two_humans}"
check 431 /api/v1/matches "${json[@]}" -H "X-Padding: $(head -c 70000 /dev/zero | tr '\0' x)" -d "$two_humans}"

# ---- GET /api/v1/matches/{id}
route GET '/api/v1/matches/{id}'
check 200 "/api/v1/matches/$live" -H "$(auth "$ada")"
etag="$(sed -n 's/^etag: //Ip' <<<"$headers")"
check 304 "/api/v1/matches/$live" -H "$(auth "$ada")" -H "If-None-Match: $etag"
check 200 "/api/v1/matches/$live"
check 200 "/api/v1/matches/$lobby" # waiting: no hand yet
check 200 "/api/v1/matches/$done_id"
check 400 "/api/v1/matches/$live?step=1"
check 401 "/api/v1/matches/$live" -H "$(auth not-a-token)"
check 404 "/api/v1/matches/$missing"

# ---- GET /api/v1/matches/{id}/legal-moves
route GET '/api/v1/matches/{id}/legal-moves'
check 200 "/api/v1/matches/$live/legal-moves" -H "$(auth "$ada")"
check 200 "/api/v1/matches/$live/legal-moves" -H "$(auth "$bo")"
check 400 "/api/v1/matches/$live/legal-moves?seat=0" -H "$(auth "$ada")"
check 401 "/api/v1/matches/$live/legal-moves"
check 404 "/api/v1/matches/$missing/legal-moves" -H "$(auth "$ada")"

# ---- POST /api/v1/matches/{id}/moves
route POST '/api/v1/matches/{id}/moves'
check 409 "/api/v1/matches/$live/moves" "${json[@]}" -H "$(auth "$bo")" -d '{"action":"draw"}'
check 422 "/api/v1/matches/$live/moves" "${json[@]}" -H "$(auth "$ada")" -d '{"action":"play","tile":"6-6"}'
check 422 "/api/v1/matches/$live/moves" "${json[@]}" -H "$(auth "$ada")" -d '{"action":"play","tile":"2-3"}'
check 422 "/api/v1/matches/$live/moves" "${json[@]}" -H "$(auth "$ada")" -d '{"action":"pass"}'
check 409 "/api/v1/matches/$live/moves" "${json[@]}" -H "$(auth "$ada")" -H "If-Match: 999" -d '{"action":"play","tile":"5-5"}'
check 400 "/api/v1/matches/$live/moves" "${json[@]}" -H "$(auth "$ada")" -d '{"action":"play"}'
check 401 "/api/v1/matches/$live/moves" "${json[@]}" -d '{"action":"draw"}'
check 404 "/api/v1/matches/$missing/moves" "${json[@]}" -H "$(auth "$ada")" -d '{"action":"draw"}'
check 415 "/api/v1/matches/$live/moves" -H "$(auth "$ada")" -d '{"action":"draw"}'
check 200 "/api/v1/matches/$live/moves" "${json[@]}" -H "$(auth "$ada")" -H "Idempotency-Key: lead-1" -d '{"action":"play","tile":"5-5"}'
check 200 "/api/v1/matches/$live/moves" "${json[@]}" -H "$(auth "$ada")" -H "Idempotency-Key: lead-1" -d '{"action":"play","tile":"5-5"}'
check 422 "/api/v1/matches/$live/moves" "${json[@]}" -H "$(auth "$ada")" -H "Idempotency-Key: lead-1" -d '{"action":"draw"}'
# Ada and Bo play the match out, each move the first legal one (read straight from the server).
for _ in $(seq 1 400); do
	body="$(curl -sS "$server/api/v1/matches/$live")"
	[ "$(field .status)" = in_progress ] || break
	tok="$ada"
	[ "$(field .turn)" = 1 ] && tok="$bo"
	body="$(curl -sS -H "$(auth "$tok")" "$server/api/v1/matches/$live")"
	move="$(field '.legal_moves[0] | del(.points)')"
	check 200 "/api/v1/matches/$live/moves" "${json[@]}" -H "$(auth "$tok")" -d "$move"
done
check 409 "/api/v1/matches/$live/moves" "${json[@]}" -H "$(auth "$ada")" -d '{"action":"draw"}'

# ---- GET /api/v1/matches/{id}/events
route GET '/api/v1/matches/{id}/events'
check 200 "/api/v1/matches/$live/events?after=0&limit=1000"
check 200 "/api/v1/matches/$done_id/events?after=2&limit=5"
check 200 "/api/v1/matches/$lobby/events" -H "$(auth "$host")"
check 400 "/api/v1/matches/$live/events?limit=5000"
check 401 "/api/v1/matches/$live/events" -H "$(auth not-a-token)"
check 404 "/api/v1/matches/$missing/events"

# ---- GET /api/v1/matches/{id}/stream
route GET '/api/v1/matches/{id}/stream'
check 200 "/api/v1/matches/$done_id/stream"
check 200 "/api/v1/matches/$done_id/stream?view=1&after=1"
check 200 "/api/v1/matches/$live/stream" -H "Last-Event-ID: 3"
version="$(curl -sS "$server/api/v1/matches/$done_id" | jq .version)"
check 204 "/api/v1/matches/$done_id/stream?after=$version"
check 400 "/api/v1/matches/$done_id/stream?after=abc"
check 401 "/api/v1/matches/$done_id/stream?token=not-a-token"
check 404 "/api/v1/matches/$missing/stream"
# The caps: a live stream held straight from the server takes this address's one stream.
curl -sS -N -o /dev/null "$server/api/v1/matches/$lobby/stream" &
holder=$!
sleep 1
check 429 "/api/v1/matches/$lobby/stream"
kill "$holder" 2>/dev/null || true
# Two held from other addresses take every stream there is.
curl -sS -N -o /dev/null --interface 127.0.0.2 "$server/api/v1/matches/$lobby/stream" &
h2=$!
curl -sS -N -o /dev/null --interface 127.0.0.3 "$server/api/v1/matches/$lobby/stream" &
h3=$!
sleep 1
check 503 "/api/v1/matches/$lobby/stream"
kill "$h2" "$h3" 2>/dev/null || true
wait "$holder" "$h2" "$h3" 2>/dev/null || true

# ---- GET /api/v1/matches/{id}/replay
route GET '/api/v1/matches/{id}/replay'
check 200 "/api/v1/matches/$done_id/replay?step=1"
check 200 "/api/v1/matches/$done_id/replay?step=$version"
check 200 "/api/v1/matches/$private/replay?step=1"
check 400 "/api/v1/matches/$done_id/replay?step=last"
check 400 "/api/v1/matches/$done_id/replay"
check 401 "/api/v1/matches/$done_id/replay?step=1" -H "$(auth not-a-token)"
check 404 "/api/v1/matches/$missing/replay?step=1"

# ---- GET /api/v1/matches/{id}/audit
route GET '/api/v1/matches/{id}/audit'
check 200 "/api/v1/matches/$done_id/audit"
check 200 "/api/v1/matches/$private/audit"
check 200 "/api/v1/matches/$lobby/audit" -H "$(auth "$host")"
check 400 "/api/v1/matches/$done_id/audit?full=1"
check 401 "/api/v1/matches/$done_id/audit" -H "$(auth not-a-token)"
check 404 "/api/v1/matches/$missing/audit"

# ---- GET /api/v1/matches/{id}/export
route GET '/api/v1/matches/{id}/export'
check 200 "/api/v1/matches/$done_id/export"
check 200 "/api/v1/matches/$done_id/export?format=json"
check 200 "/api/v1/matches/$done_id/export?format=text"
check 200 "/api/v1/matches/$live/export?format=text"
check 400 "/api/v1/matches/$done_id/export?format=xml"
check 401 "/api/v1/matches/$done_id/export" -H "$(auth not-a-token)"
check 404 "/api/v1/matches/$missing/export"

# ---- POST /api/v1/matches/{id}/seats/{seat}/join
route POST '/api/v1/matches/{id}/seats/{seat}/join'
check 201 "/api/v1/matches/$lobby/seats/1/join" "${json[@]}" -d '{"name":"Cy"}'
cy="$(field .token)"
check 409 "/api/v1/matches/$lobby/seats/1/join" "${json[@]}" -d '{"name":"Di"}'
check 403 "/api/v1/matches/$private/seats/1/join" "${json[@]}" -d '{"name":"Di","invite":"not-the-invite"}'
check 400 "/api/v1/matches/$lobby/seats/north/join" "${json[@]}" -d '{"name":"Di"}'
check 404 "/api/v1/matches/$missing/seats/1/join" "${json[@]}" -d '{"name":"Di"}'
check 413 "/api/v1/matches/$lobby/seats/2/join" "${json[@]}" -d "{\"name\":\"$(head -c 70000 /dev/zero | tr '\0' x)\"}"
check 415 "/api/v1/matches/$lobby/seats/2/join" -H "Content-Type: text/plain" -d '{"name":"Di"}'
# (A charset other than UTF-8 is 415 too, but Prism reads such a body itself and answers 400:
# api's TestCharset checks it against openapi.yaml instead.)
# A join with a key says nothing a body would: it needs none, as a decline or a resignation.
jkey="$(curl -sS -X POST "$server/api/v1/players" "${json[@]}" -d '{"name":"Prism Joiner"}' | jq -r .key)"
open2="$(curl -sS -X POST "$server/api/v1/matches" "${json[@]}" -d '{"players":[{"name":"Ada","kind":"human"},{"kind":"open"}],"listed":true}' | jq -r .match.id)"
check 201 "/api/v1/matches/$open2/seats/1/join" -H "$(auth "$jkey")"
check 409 "/api/v1/matches/$done_id/seats/1/join" "${json[@]}" -d '{"name":"Di"}'

# ---- POST /api/v1/matches/{id}/seats/{seat}/leave
route POST '/api/v1/matches/{id}/seats/{seat}/leave'
check 200 "/api/v1/matches/$lobby/seats/1/leave" -H "$(auth "$cy")"
check 401 "/api/v1/matches/$lobby/seats/1/leave" -H "$(auth "$cy")"
check 400 "/api/v1/matches/$lobby/seats/9/leave" -H "$(auth "$host")"
check 404 "/api/v1/matches/$missing/seats/0/leave" -H "$(auth "$host")"
check 409 "/api/v1/matches/$live/seats/0/leave" -H "$(auth "$ada")"

# ---- POST /api/v1/matches/{id}/seats/{seat}/resume
route POST '/api/v1/matches/{id}/seats/{seat}/resume'
# A clocked match: the first seat to move lets its 10 s pass and is put on autoplay; the
# other human's turn then waits, and the first takes its seat back.
clocked_tokens="$(curl -sS "${json[@]}" -d "$two_humans,\"turn_seconds\":10,\"autoplay_after\":1}" "$server/api/v1/matches")"
clocked="$(jq -r .match.id <<<"$clocked_tokens")"
first=""
for _ in $(seq 1 120); do
	body="$(curl -sS "$server/api/v1/matches/$clocked")"
	first="$(field '[.seats[] | select(.autoplay)][0].seat // empty')"
	[ -n "$first" ] && break
	sleep 0.5
done
t_first="$(jq -r ".tokens[] | select(.seat == ${first:-0}) | .token" <<<"$clocked_tokens")"
t_other="$(jq -r ".tokens[] | select(.seat != ${first:-0}) | .token" <<<"$clocked_tokens")"
check 200 "/api/v1/matches/$clocked/seats/${first:-0}/resume" -H "$(auth "$t_first")"
check 400 "/api/v1/matches/$clocked/seats/${first:-0}/resume" -H "$(auth "$t_first")"
check 401 "/api/v1/matches/$clocked/seats/${first:-0}/resume" -H "$(auth "$t_other")"
check 404 "/api/v1/matches/$missing/seats/0/resume" -H "$(auth "$t_first")"
check 409 "/api/v1/matches/$lobby/seats/0/resume" -H "$(auth "$host")"
check 409 "/api/v1/matches/$live/seats/0/resume" -H "$(auth "$ada")"

# ---- reviews of a finished match
route POST /api/v1/matches
check 201 /api/v1/matches "${json[@]}" -d '{"players":[{"name":"R1","kind":"bot","bot":"greedy"},{"name":"R2","kind":"bot","bot":"random"}],"target":50}'
unreviewed="$(field .match.id)" # finished by its bots (off the request path), and never reviewed
for _ in $(seq 1 120); do
	[ "$(curl -sS "$server/api/v1/matches/$unreviewed" | jq -r .status)" = finished ] && break
	sleep 0.5
done
route POST '/api/v1/matches/{id}/review'
check 202 "/api/v1/matches/$done_id/review"
check 404 "/api/v1/matches/$missing/review"
check 409 "/api/v1/matches/$lobby/review"
check 400 "/api/v1/matches/$done_id/review?method=x"
route GET '/api/v1/matches/{id}/review'
check 404 "/api/v1/matches/$unreviewed/review" # never asked: REVIEW_NOT_FOUND
check 409 "/api/v1/matches/$lobby/review"
reviewed=""
for _ in $(seq 1 240); do
	if [ "$(curl -sS -o /dev/null -w '%{http_code}' "$server/api/v1/matches/$done_id/review")" = 200 ]; then
		reviewed=yes
		break
	fi
	sleep 0.5
done
[ -n "$reviewed" ] || echo "the review of $done_id did not finish in 120 s"
check 200 "/api/v1/matches/$done_id/review"

# ---- Explore and Play on (docs/review.md): a decision of the reviewed match, and events that are not
step="$(field '.decisions[0].seq // empty')"
route GET '/api/v1/matches/{id}/analysis'
if [ -n "$step" ]; then
	check 200 "/api/v1/matches/$done_id/analysis?step=$step"
fi
check 409 "/api/v1/matches/$done_id/analysis?step=1" # match.created: NOT_A_DECISION
check 400 "/api/v1/matches/$done_id/analysis?step=x"
check 409 "/api/v1/matches/$lobby/analysis?step=1" # MATCH_NOT_FINISHED
check 404 "/api/v1/matches/$missing/analysis?step=1"
route POST '/api/v1/matches/{id}/branches'
if [ -n "$step" ]; then
	check 201 "/api/v1/matches/$done_id/branches" "${json[@]}" -d "{\"step\":$step,\"bot\":\"random\"}"
fi
check 409 "/api/v1/matches/$done_id/branches" "${json[@]}" -d '{"step":1,"bot":"random"}'
check 400 "/api/v1/matches/$done_id/branches" "${json[@]}" -d '{}'
check 404 "/api/v1/matches/$missing/branches" "${json[@]}" -d '{"step":2,"bot":"random"}'

# ---- puzzles of the reviewed match (docs/puzzles.md): 200 while one is left, else 404 NO_PUZZLE
solver="$(curl -sS -X POST "$server/api/v1/players" "${json[@]}" -d '{"name":"Prism Solver"}' | jq -r .key)"
solver_id="$(curl -sS "$server/api/v1/players/me" -H "$(auth "$solver")" | jq -r .id)"
route GET /api/v1/puzzles/next
check "$(curl -sS -o /dev/null -w '%{http_code}' "$server/api/v1/puzzles/next")" /api/v1/puzzles/next -H "$(auth "$solver")"
puzzle="$(jq -r '.puzzle.id // empty' <<<"$body")"
first_move="$(jq -c '.puzzle.legal_moves[0] // empty' <<<"$body")"
check 400 "/api/v1/puzzles/next?rating=1500"
check 401 /api/v1/puzzles/next -H "$(auth nope)"
route POST '/api/v1/puzzles/{id}/attempts'
if [ -n "$puzzle" ]; then
	check 200 "/api/v1/puzzles/$puzzle/attempts" "${json[@]}" -H "$(auth "$solver")" -d "{\"move\":$first_move}"
	check 422 "/api/v1/puzzles/$puzzle/attempts" "${json[@]}" -d '{"move":{"action":"play","tile":"9-9"}}'
fi
check 404 "/api/v1/puzzles/$missing/attempts" "${json[@]}" -d '{"move":{"action":"draw"}}'
check 400 "/api/v1/puzzles/$missing/attempts" "${json[@]}" -d '{}'
route GET '/api/v1/players/{id}/puzzles'
check 200 "/api/v1/players/$solver_id/puzzles" -H "$(auth "$solver")"
check 400 "/api/v1/players/$solver_id/puzzles?limit=0" -H "$(auth "$solver")"
check 401 "/api/v1/players/$solver_id/puzzles"
check 403 "/api/v1/players/$missing/puzzles" -H "$(auth "$solver")"

# ---- players and keys
route POST /api/v1/players
check 201 /api/v1/players "${json[@]}" -d '{"name":"Prism Ada"}'
pkey="$(field .key)"
pid="$(field .player.id)"
check 409 /api/v1/players "${json[@]}" -d '{"name":"prism ada"}'
check 400 /api/v1/players "${json[@]}" -d '{"name":"\u200b"}'
route GET /api/v1/players/me
check 200 /api/v1/players/me -H "$(auth "$pkey")"
check 401 /api/v1/players/me
route POST /api/v1/players/me/key
check 200 /api/v1/players/me/key -H "$(auth "$pkey")"
check 401 /api/v1/players/me/key -H "$(auth "$pkey")" # the old key, rotated away
route POST /api/v1/players/me/key
check 200 /api/v1/players/me/key -H "$(auth "$(curl -sS -X POST "$server/api/v1/players" "${json[@]}" -d '{"name":"Prism Bo"}' | jq -r .key)")"
route POST /api/v1/matches
check 201 /api/v1/matches "${json[@]}" -H "$(auth "$(field .key)")" -d '{"players":[{"kind":"human","player":"me"},{"name":"PB","kind":"bot","bot":"random"}]}'
route GET /api/v1/players
check 200 "/api/v1/players?name=PRISM%20ADA"
check 400 /api/v1/players
check 404 "/api/v1/players?name=Nobody%20Here"
route GET '/api/v1/players/{id}/matches'
check 200 "/api/v1/players/$pid/matches"
check 200 "/api/v1/players/$pid/matches?status=finished&limit=2"
check 401 "/api/v1/players/$pid/matches?turn=me"
check 400 "/api/v1/players/$pid/matches?limit=500"
check 404 "/api/v1/players/$missing/matches"
route GET '/api/v1/players/{id}'
check 200 "/api/v1/players/$pid"
check 404 "/api/v1/players/$missing"

# ---- look-alike names, bound seats' names, bot seats without a name
route POST /api/v1/players
check 409 /api/v1/players "${json[@]}" -d '{"name":"Prisrn Ada"}' # rn looks like the m of Prism Ada
check 409 /api/v1/players "${json[@]}" -d '{"name":"bot-prism"}'
check 400 /api/v1/players "${json[@]}" -d '{"name":"Prism Вo"}' # a Cyrillic В among Latin letters
route POST /api/v1/matches
check 400 /api/v1/matches "${json[@]}" -H "$(auth "$(curl -sS -X POST "$server/api/v1/players" "${json[@]}" -d '{"name":"Prism Seat"}' | jq -r .key)")" \
	-d '{"players":[{"kind":"human","player":"me","name":"Someone Else"},{"kind":"bot","bot":"random"}]}'
check 201 /api/v1/matches "${json[@]}" -d '{"players":[{"name":"Ada","kind":"human"},{"kind":"bot","bot":"greedy"}]}'

# ---- single-use tickets for the streams
tkey="$(curl -sS -X POST "$server/api/v1/players" "${json[@]}" -d '{"name":"Prism Ticket"}' | jq -r .key)"
route POST /api/v1/players/me/tickets
check 201 /api/v1/players/me/tickets -H "$(auth "$tkey")"
check 400 "/api/v1/players/me/tickets?ttl=5" -H "$(auth "$tkey")"
check 401 /api/v1/players/me/tickets
route POST '/api/v1/matches/{id}/tickets'
check 201 "/api/v1/matches/$live/tickets" -H "$(auth "$ada")"
ticket="$(field .ticket)"
check 400 "/api/v1/matches/$live/tickets?seat=1" -H "$(auth "$ada")"
check 401 "/api/v1/matches/$live/tickets"
check 404 "/api/v1/matches/$missing/tickets" -H "$(auth "$ada")"
route GET '/api/v1/matches/{id}/stream'
check 200 "/api/v1/matches/$live/stream?ticket=$ticket"
check 401 "/api/v1/matches/$live/stream?ticket=$ticket" # used

# ---- the player's stream (SSE). It ends when its key is rotated: once it is open, the job in
# the background rotates the key and creates a match with the new one, which the stream hears
# of at once (rather than at its next heartbeat, 15 s on).
skey="$(curl -sS -X POST "$server/api/v1/players" "${json[@]}" -d '{"name":"Prism Stream"}' | jq -r .key)"
sticket="$(curl -sS -X POST "$server/api/v1/players/me/tickets" -H "$(auth "$skey")" | jq -r .ticket)"
(
	sleep 2
	nkey="$(curl -sS -X POST "$server/api/v1/players/me/key" -H "$(auth "$skey")" | jq -r .key)"
	curl -sS -o /dev/null -X POST "$server/api/v1/matches" "${json[@]}" -H "$(auth "$nkey")" \
		-d '{"players":[{"kind":"human","player":"me"},{"name":"PS","kind":"bot","bot":"random"}]}'
) &
rotator=$!
route GET /api/v1/players/me/stream
check 200 "/api/v1/players/me/stream?ticket=$sticket"
wait "$rotator"
check 401 "/api/v1/players/me/stream?ticket=$sticket" # used
check 401 /api/v1/players/me/stream -H "$(auth "$skey")" # rotated away
check 400 "/api/v1/players/me/stream?after=1"

# ---- the limit of stream tickets (--limit-tickets 3/1h): three were issued above, from this
# one address
route POST /api/v1/players/me/tickets
check 429 /api/v1/players/me/tickets -H "$(auth "$tkey")"
route POST '/api/v1/matches/{id}/tickets'
check 429 "/api/v1/matches/$live/tickets" -H "$(auth "$ada")"

# ---- rematch of a finished match
route POST '/api/v1/matches/{id}/rematch'
check 200 "/api/v1/matches/$live/rematch" -H "$(auth "$ada")"
check 200 "/api/v1/matches/$live/rematch" -H "$(auth "$ada")" # the same match, its token shown once
check 401 "/api/v1/matches/$live/rematch"
check 404 "/api/v1/matches/$missing/rematch" -H "$(auth "$ada")"
check 409 "/api/v1/matches/$lobby/rematch" -H "$(auth "$host")"

# ---- consent: a challenge declined, another withdrawn, a match resigned
ckey="$(curl -sS -X POST "$server/api/v1/players" "${json[@]}" -d '{"name":"Prism Challenger"}' | jq -r .key)"
dresp="$(curl -sS -X POST "$server/api/v1/players" "${json[@]}" -d '{"name":"Prism Challenged"}')"
dkey="$(jq -r .key <<<"$dresp")" did="$(jq -r .player.id <<<"$dresp")"
challenge="{\"players\":[{\"kind\":\"human\",\"player\":\"me\"},{\"kind\":\"human\",\"player\":\"$did\"}]}"
route POST /api/v1/matches
check 201 /api/v1/matches "${json[@]}" -H "$(auth "$ckey")" -d "$challenge"
declined="$(field .match.id)"
check 201 /api/v1/matches "${json[@]}" -H "$(auth "$ckey")" -d "$challenge"
withdrawn="$(field .match.id)" wtoken="$(field '.tokens[0].token')"
route POST '/api/v1/matches/{id}/seats/{seat}/decline'
check 401 "/api/v1/matches/$declined/seats/1/decline"
check 401 "/api/v1/matches/$declined/seats/1/decline" -H "$(auth "$ckey")"
check 400 "/api/v1/matches/$declined/seats/north/decline" -H "$(auth "$dkey")"
check 404 "/api/v1/matches/$missing/seats/1/decline" -H "$(auth "$dkey")"
check 409 "/api/v1/matches/$declined/seats/0/decline" -H "$(auth "$dkey")" # taken: SEAT_NOT_RESERVED
check 200 "/api/v1/matches/$declined/seats/1/decline" -H "$(auth "$dkey")"
check 409 "/api/v1/matches/$declined/seats/1/decline" -H "$(auth "$dkey")" # cancelled: MATCH_FINISHED
route POST '/api/v1/matches/{id}/cancel'
check 401 "/api/v1/matches/$withdrawn/cancel" -H "$(auth "$dkey")" # reserved a seat, not seated
check 400 "/api/v1/matches/$withdrawn/cancel?reason=x" -H "$(auth "$wtoken")"
check 404 "/api/v1/matches/$missing/cancel" -H "$(auth "$wtoken")"
check 200 "/api/v1/matches/$withdrawn/cancel" -H "$(auth "$wtoken")"
check 409 "/api/v1/matches/$withdrawn/cancel" -H "$(auth "$wtoken")"
route POST /api/v1/matches
check 201 /api/v1/matches "${json[@]}" -d "$two_humans}"
resigned="$(field .match.id)" rtoken="$(field '.tokens[1].token')"
route POST '/api/v1/matches/{id}/cancel'
check 409 "/api/v1/matches/$resigned/cancel" -H "$(auth "$rtoken")" # in progress: MATCH_STARTED
route POST '/api/v1/matches/{id}/resign'
check 401 "/api/v1/matches/$resigned/resign"
check 400 "/api/v1/matches/$resigned/resign?seat=1" -H "$(auth "$rtoken")"
check 404 "/api/v1/matches/$missing/resign" -H "$(auth "$rtoken")"
check 409 "/api/v1/matches/$lobby/resign" -H "$(auth "$host")" # waiting: MATCH_NOT_STARTED
check 200 "/api/v1/matches/$resigned/resign" -H "$(auth "$rtoken")"
check 409 "/api/v1/matches/$resigned/resign" -H "$(auth "$rtoken")" # finished
route GET /api/v1/matches
check 200 "/api/v1/matches?status=cancelled"

# ---- ratings and leaderboards
route POST /api/v1/matches
for _ in $(seq 20); do
	check 201 /api/v1/matches "${json[@]}" -d '{"players":[{"name":"R","kind":"bot","bot":"random"},{"name":"G","kind":"bot","bot":"greedy"}],"target":5,"rated":true}'
done
rated="$(field .match.id)"
check 400 /api/v1/matches "${json[@]}" -d '{"players":[{"name":"Ada","kind":"human"},{"name":"G","kind":"bot","bot":"greedy"}],"rated":true}'
for _ in $(seq 120); do # the bot workers finish them, the projection rates them (--ratings-interval)
	[ "$(curl -sS "$server/api/v1/matches/$rated" | jq '.rating_changes | length')" = 2 ] && break
	sleep 0.25
done
route GET '/api/v1/matches/{id}'
check 200 "/api/v1/matches/$rated"
if [ "$(field '.rating_changes | length')" != 2 ]; then
	failures=$((failures + 1))
	echo "FAIL: the rated match $rated has no rating_changes after 30 s"
fi
route GET '/api/v1/players/{id}/ratings'
check 200 /api/v1/players/bot-greedy/ratings
check 200 "/api/v1/players/bot-greedy/ratings?format=2p&limit=2"
check 200 "/api/v1/players/bot-greedy/ratings?limit=2&cursor=$(field .next_cursor)"
check 200 "/api/v1/players/$pid/ratings"
check 400 "/api/v1/players/bot-greedy/ratings?format=5p"
check 404 "/api/v1/players/$missing/ratings"
route GET '/api/v1/leaderboard/{format}'
check 200 /api/v1/leaderboard/2p
check 200 "/api/v1/leaderboard/2p?limit=1"
check 200 "/api/v1/leaderboard/2p?limit=1&cursor=$(field .next_cursor)"
check 200 /api/v1/leaderboard/2v2
check 400 /api/v1/leaderboard/5p
check 400 "/api/v1/leaderboard/2p?cursor=not-a-cursor"

# ---- Play now: seeks (docs/matchmaking.md)
k1="$(curl -sS -X POST "$server/api/v1/players" "${json[@]}" -d '{"name":"Prism Seeker"}' | jq -r .key)"
k2="$(curl -sS -X POST "$server/api/v1/players" "${json[@]}" -d '{"name":"Prism Finder"}' | jq -r .key)"
route POST /api/v1/seeks
check 201 /api/v1/seeks "${json[@]}" -H "$(auth "$k1")" -d '{"format":"4p","rated":false,"turn_seconds":30,"target":100}'
lone="$(field .seek.id)"
check 409 /api/v1/seeks "${json[@]}" -H "$(auth "$k1")" -d '{"format":"4p","rated":true}'
check 400 /api/v1/seeks "${json[@]}" -H "$(auth "$k1")" -d '{"format":"5p","rated":true}'
check 401 /api/v1/seeks "${json[@]}" -d '{"format":"2p","rated":true}'
check 415 /api/v1/seeks -H "$(auth "$k1")" -d '{"format":"2p","rated":true}'
route GET '/api/v1/seeks/{id}'
check 200 "/api/v1/seeks/$lone" -H "$(auth "$k1")"
check 400 "/api/v1/seeks/$lone?status=searching" -H "$(auth "$k1")"
check 401 "/api/v1/seeks/$lone"
check 404 "/api/v1/seeks/$lone" -H "$(auth "$k2")"
route DELETE '/api/v1/seeks/{id}'
check 200 "/api/v1/seeks/$lone" -H "$(auth "$k1")"
check 400 "/api/v1/seeks/$lone?reason=bored" -H "$(auth "$k1")"
check 401 "/api/v1/seeks/$lone"
check 404 "/api/v1/seeks/$lone" -H "$(auth "$k2")"
route POST /api/v1/seeks
check 201 /api/v1/seeks "${json[@]}" -H "$(auth "$k1")" -d '{"format":"2p","rated":true}'
paired="$(field .seek.id)"
check 201 /api/v1/seeks "${json[@]}" -H "$(auth "$k2")" -d '{"format":"2p","rated":true}'
for _ in $(seq 40); do # the matcher pairs them (--seek-interval)
	[ "$(curl -sS "$server/api/v1/seeks/$paired" -H "$(auth "$k1")" | jq -r .seek.status)" = matched ] && break
	sleep 0.25
done
route GET '/api/v1/seeks/{id}'
check 200 "/api/v1/seeks/$paired" -H "$(auth "$k1")"
if [ "$(field .seek.status)" != matched ]; then
	failures=$((failures + 1))
	echo "FAIL: the seeks of two players were not paired within 10 s: $body"
fi

# ---- GET /api/v1/matches (history and lobby)
route GET /api/v1/matches
check 200 /api/v1/matches
check 200 "/api/v1/matches?status=waiting"
check 200 "/api/v1/matches?status=finished&player=Ada"
check 200 "/api/v1/matches?since=2000-01-01T00:00:00Z&until=2999-01-01T00:00:00Z&limit=2"
cursor="$(field .next_cursor)"
check 200 "/api/v1/matches?limit=2&cursor=$cursor"
check 200 "/api/v1/matches?status=expired"
check 400 "/api/v1/matches?status=done"
check 400 "/api/v1/matches?cursor=not-a-cursor"

# ---- tournaments: a Swiss of four bots, played to its end within the start; a round robin
# to join, leave and cancel
okey="$(curl -sS -X POST "$server/api/v1/players" "${json[@]}" -d '{"name":"Prism Organiser"}' | jq -r .key)"
ekey="$(curl -sS -X POST "$server/api/v1/players" "${json[@]}" -d '{"name":"Prism Entrant"}' | jq -r .key)"
route POST /api/v1/tournaments
check 201 /api/v1/tournaments "${json[@]}" -H "$(auth "$okey")" -d '{"name":"Prism Swiss","format":"2p","system":"swiss","rounds":2,"target":50}'
swiss="$(field .id)"
check 400 /api/v1/tournaments "${json[@]}" -H "$(auth "$okey")" -d '{"name":"Prism","format":"5p","system":"swiss","rounds":2}'
check 400 /api/v1/tournaments "${json[@]}" -H "$(auth "$okey")" -d '{"name":"Prism","format":"2p","system":"swiss","rounds":2,"target":0}'
check 401 /api/v1/tournaments "${json[@]}" -d '{"name":"Prism","format":"2p","system":"swiss","rounds":2}'
check 201 /api/v1/tournaments "${json[@]}" -H "$(auth "$okey")" -d '{"name":"Prism Robin","format":"2p","system":"round_robin","duplicate":true}'
robin="$(field .id)"
route POST '/api/v1/tournaments/{id}/entries'
for b in random greedy random greedy; do
	check 201 "/api/v1/tournaments/$swiss/entries" "${json[@]}" -H "$(auth "$okey")" -d "{\"bot\":\"$b\"}"
done
check 403 "/api/v1/tournaments/$swiss/entries" "${json[@]}" -H "$(auth "$ekey")" -d '{"bot":"random"}'
check 201 "/api/v1/tournaments/$robin/entries" -H "$(auth "$ekey")"
check 409 "/api/v1/tournaments/$robin/entries" -H "$(auth "$ekey")"
check 404 "/api/v1/tournaments/$missing/entries" -H "$(auth "$ekey")"
route DELETE '/api/v1/tournaments/{id}/entries/{player}'
check 200 "/api/v1/tournaments/$robin/entries/me" -H "$(auth "$ekey")"
check 404 "/api/v1/tournaments/$robin/entries/me" -H "$(auth "$ekey")"
route POST '/api/v1/tournaments/{id}/start'
check 409 "/api/v1/tournaments/$robin/start" -H "$(auth "$okey")"
check 403 "/api/v1/tournaments/$swiss/start" -H "$(auth "$ekey")"
check 200 "/api/v1/tournaments/$swiss/start" -H "$(auth "$okey")"
route GET /api/v1/tournaments
check 200 /api/v1/tournaments
check 200 "/api/v1/tournaments?status=finished&limit=5"
check 400 "/api/v1/tournaments?status=over"
route GET '/api/v1/tournaments/{id}'
check 200 "/api/v1/tournaments/$swiss"
check 404 "/api/v1/tournaments/$missing"
route GET '/api/v1/tournaments/{id}/audit'
check 200 "/api/v1/tournaments/$swiss/audit"
check 404 "/api/v1/tournaments/$missing/audit"
route GET '/api/v1/tournaments/{id}/export'
check 200 "/api/v1/tournaments/$swiss/export"
check 404 "/api/v1/tournaments/$missing/export"
route POST '/api/v1/tournaments/{id}/cancel'
check 200 "/api/v1/tournaments/$robin/cancel" -H "$(auth "$okey")"
check 409 "/api/v1/tournaments/$robin/cancel" -H "$(auth "$okey")"

# ---- the probes and the document
route GET /healthz
check 200 /healthz
route GET /readyz
check 200 /readyz
route GET /metrics
check 200 /metrics
route GET /openapi.yaml
check 200 /openapi.yaml

# ---- off the document (Prism answers these itself, so they are checked straight)
direct 404 NOT_FOUND GET /api/v1/nowhere
direct 405 METHOD_NOT_ALLOWED DELETE /api/v1/matches
direct 405 METHOD_NOT_ALLOWED POST /healthz

# Every path and method of openapi.yaml must have been called above.
documented="$(awk '
	/^paths:/ { in_paths = 1; next }
	in_paths && /^[^ ]/ { in_paths = 0 }
	in_paths && /^  [^ ]/ { path = $1; sub(/:$/, "", path); gsub(/'\''/, "", path) }
	in_paths && /^    (get|put|post|delete|patch|head|options):/ { m = $1; sub(/:$/, "", m); print toupper(m) " " path }
' "$doc" | sort -u)"
uncalled="$(comm -23 <(echo "$documented") <(sort -u "$called"))"
if [ -z "$documented" ]; then
	echo "FAIL: no path found in openapi.yaml"
	failures=$((failures + 1))
fi
if [ -n "$uncalled" ]; then
	echo "FAIL: openapi.yaml has routes the session never calls (add a block to $0):"
	echo "$uncalled" | sed 's/^/    /'
	failures=$((failures + 1))
fi

cp "$work/prism.log" "${PRISM_LOG:-/dev/null}"
logged="$(grep -c 'Violation: response' "$work/prism.log" || true)"
echo "== prism: $calls requests over $(echo "$documented" | wc -l) documented routes, $violations violations in sl-violations, $logged in Prism's log, $failures failures"
if [ "$violations" -ne 0 ] || [ "$logged" -ne 0 ] || [ "$failures" -ne 0 ]; then
	exit 1
fi
