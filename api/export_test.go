package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/notation"
)

// TestExportJSONRefolds: the JSON export of finished matches of every table size folds back,
// through the domain, into the same state the API shows, and carries the log as the events
// endpoint does; a live match exports as the caller may see it.
func TestExportJSONRefolds(t *testing.T) {
	h := newHarness(t)
	for i, size := range tableSizes {
		tb := h.botMatch(size.players, size.partnerships, i)
		var raw struct {
			Match  json.RawMessage `json:"match"`
			Events []domain.Event  `json:"events"`
		}
		r := tb.fetch("/export?format=json", -1, &raw)
		if ct := r.header.Get("Content-Type"); ct != "application/json" {
			t.Fatalf("Content-Type %q", ct)
		}
		m, err := domain.Rebuild(tb.id, raw.Events)
		if err != nil {
			t.Fatalf("the export does not fold: %v", err)
		}
		want, err := h.svc.View(context.Background(), tb.id, domain.Spectator())
		if err != nil {
			t.Fatal(err)
		}
		if got := m.View(domain.Spectator()); jsonOf(t, got) != jsonOf(t, want) {
			t.Fatalf("the export folds to\n%s\nnot\n%s", jsonOf(t, got), jsonOf(t, want))
		}
		var exported api.ExportResponse
		r.decode(t, &exported)
		if jsonOf(t, exported.Match) != jsonOf(t, tb.view(-1)) || jsonOf(t, plainEvents(exported.Events)) != jsonOf(t, tb.events(-1).Events) {
			t.Fatal("the export's match or events differ from GET match and GET events")
		}
		for _, e := range exported.Events {
			if e.PrevHash == nil || e.Hash == nil || e.RawData == nil {
				t.Fatalf("seq %d of a finished match's export has no chain link", e.Seq)
			}
		}
		if jsonOf(t, raw.Events) != jsonOf(t, tb.fullLog()) {
			t.Fatal("a finished match's export is not the whole stored log")
		}
		var def api.ExportResponse
		tb.fetch("/export", -1, &def)
		if jsonOf(t, def) != jsonOf(t, exported) {
			t.Fatal("format=json is not the default")
		}
	}

	live := h.create(seed1, false, "human", "human")
	live.mustMove(0, play("5-5", ""))
	for _, seat := range []int{-1, 0, 1} {
		var exported api.ExportResponse
		live.fetch("/export", seat, &exported)
		if jsonOf(t, plainEvents(exported.Events)) != jsonOf(t, live.events(seat).Events) || jsonOf(t, exported.Match) != jsonOf(t, live.view(seat)) {
			t.Fatalf("seat %d: the export differs from GET events and GET match", seat)
		}
		// A live export carries no chain: raw payloads hold every hand, and a draw's hash gives
		// its tile away to anyone trying the 28 candidates (docs/api-records.md, "Verifying an export").
		if body := string(live.fetch("/export", seat, nil).body); strings.Contains(body, "hash") || strings.Contains(body, "raw_data") {
			t.Fatalf("seat %d: a live match's export carries chain links: %s", seat, body)
		}
	}
	for _, q := range []string{"?format=xml", "?format=", "?format=json&format=text", "?as=text"} {
		live.h.do(http.MethodGet, live.path("/export"+q), nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	}
	h.do(http.MethodGet, "/api/v1/matches/nope/export", nil).problem(t, http.StatusNotFound, "MATCH_NOT_FOUND")
	live.h.do(http.MethodGet, live.path("/export"), nil, auth("nope")...).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
}

// TestExportText: format=text is the notation of the events the caller may see, as plain
// text: everything once the match has ended, only the caller's own hand while it is live.
func TestExportText(t *testing.T) {
	h := newHarness(t)
	done := h.botMatch(3, false, 0)
	r := done.fetch("/export?format=text", -1, nil)
	if ct := r.header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	var want strings.Builder
	if err := notation.Write(&want, done.id, done.fullLog()); err != nil {
		t.Fatal(err)
	}
	if string(r.body) != want.String() {
		t.Fatalf("text export:\n%s\nwant:\n%s", r.body, want.String())
	}
	if !strings.Contains(string(r.body), "seed          "+done.fullLog()[len(done.fullLog())-1].Data.(domain.MatchEnded).Seed) {
		t.Fatalf("a finished match's text export does not reveal the seed:\n%s", r.body)
	}

	live := h.create(seed1, false, "human", "human")
	live.mustMove(0, play("5-5", ""))
	for _, seat := range []int{-1, 0, 1} {
		r := live.fetch("/export?format=text", seat, nil)
		v := domain.Spectator()
		if seat >= 0 {
			v = domain.SeatViewer(seat)
		}
		want.Reset()
		if err := notation.Write(&want, live.id, v.RedactAll(live.fullLog(), false)); err != nil {
			t.Fatal(err)
		}
		if string(r.body) != want.String() {
			t.Fatalf("seat %d: text export:\n%s\nwant:\n%s", seat, r.body, want.String())
		}
		if !strings.Contains(string(r.body), "secret until the match ends") {
			t.Fatalf("seat %d: a live match's text export shows a seed:\n%s", seat, r.body)
		}
	}
}

// plainEvents drops the chain links of an export's events, leaving them as GET /events shows them.
func plainEvents(in []api.ExportEvent) []api.Event {
	out := make([]api.Event, len(in))
	for i, e := range in {
		out[i] = e.Event
	}
	return out
}
