package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/allfives/allfives/api"
)

// playerSSE is a player's stream read by a real HTTP client, with what it sent so far.
type playerSSE struct {
	*sse
	events []string // "name match" of each event read
}

// openPlayerStream opens the player's stream at base with the key (or, when ticket is set,
// the ticket) and reads its snapshot.
func openPlayerStream(t *testing.T, base, key, ticket string) (*playerSSE, api.PlayerSnapshot) {
	t.Helper()
	u, hdr := base+"/api/v1/players/me/stream", auth(key)
	if ticket != "" {
		u, hdr = u+"?ticket="+url.QueryEscape(ticket), nil
	}
	s, r := openStream(t, u, hdr...)
	if r != nil {
		t.Fatalf("the player's stream: %d %s", r.status, r.body)
	}
	f, ok := s.nextEvent()
	if !ok || f.event != "snapshot" || f.id != "" {
		t.Fatalf("the first frame %+v, want a snapshot", f)
	}
	var snap api.PlayerSnapshot
	if err := json.Unmarshal([]byte(f.data), &snap); err != nil {
		t.Fatal(err)
	}
	return &playerSSE{sse: s}, snap
}

// expect reads events until one named name about match, and returns its data; it fails if
// the stream ends first.
func (ps *playerSSE) expect(name, match string) api.PlayerEvent {
	ps.t.Helper()
	for {
		f, ok := ps.nextEvent()
		if !ok {
			ps.t.Fatalf("the stream ended before %s of %s; it sent %v", name, match, ps.events)
		}
		var e api.PlayerEvent
		if err := json.Unmarshal([]byte(f.data), &e); err != nil || e.Match == "" || f.id != "" {
			ps.t.Fatalf("frame %+v: %v", f, err)
		}
		ps.events = append(ps.events, f.event+" "+e.Match)
		if f.event == name && e.Match == match {
			return e
		}
	}
}

// refusedPlayerStream checks that the player's stream at u answers status and code.
func refusedPlayerStream(t *testing.T, u string, status int, code string, hdr ...string) {
	t.Helper()
	refusedStream(t, u, status, code, hdr...)
}

// itemIDs are the ids of items with their seats, "id/seat".
func itemIDs(items []api.PlayerMatchItem) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.ID+"/"+string(rune('0'+it.Seat)))
	}
	return out
}

// moveFor makes one legal move for seat with cred (its token or its player's key).
func (tb *table) moveFor(seat int, cred string, turn int) {
	tb.h.t.Helper()
	r := tb.h.do(http.MethodGet, tb.path("/legal-moves"), nil, auth(cred)...)
	var lm api.LegalMovesResponse
	r.decode(tb.h.t, &lm)
	if r.status != http.StatusOK || len(lm.LegalMoves) == 0 {
		tb.h.t.Fatalf("legal moves of seat %d: %d %s", seat, r.status, r.body)
	}
	if r := tb.move(seat, asMove(pick(lm.LegalMoves, turn)), auth(cred)...); r.status != http.StatusOK {
		tb.h.t.Fatalf("move of seat %d: %d %s", seat, r.status, r.body)
	}
}

// expectTurn reads events until the turn of match at version, skipping turns of earlier versions.
func (ps *playerSSE) expectTurn(match string, seat, version int) {
	ps.t.Helper()
	for {
		e := ps.expect("turn", match)
		if e.Seat != seat || e.Version > version {
			ps.t.Fatalf("turn %+v, want seat %d at version %d", e, seat, version)
		}
		if e.Version == version {
			return
		}
	}
}
