package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// reviewStore is a store of matches and reviews, SQLite or PostgreSQL.
type reviewStore interface {
	storetest.ReviewStore
	api.Pinger
}

// sqliteReviewStore opens a fresh SQLite file in t's temp dir.
func sqliteReviewStore(t testing.TB) *sqlite.Store {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "allfives.db"), sqlite.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// finishedMatch creates a short match of bots, finished when the create returns.
func (h *harness) finishedMatch(seed string) *table {
	h.t.Helper()
	target := 50
	tb := h.createMatch(api.CreateMatchRequest{Seed: seed, Target: &target, Players: []api.PlayerRequest{
		{Name: "Ada", Kind: "bot", Bot: "greedy"}, {Name: "Bob", Kind: "bot", Bot: "random"},
	}})
	if v := tb.view(-1); v.Status != "finished" {
		h.t.Fatalf("the match of bots is %s", v.Status)
	}
	return tb
}

// askReview POSTs for tb's review and checks the answer's status and Location.
func (tb *table) askReview(want int) *reply {
	tb.h.t.Helper()
	r := tb.h.do(http.MethodPost, tb.path("/review"), nil)
	if r.status != want {
		tb.h.t.Fatalf("POST review: %d, want %d: %s", r.status, want, r.body)
	}
	if loc := r.header.Get("Location"); want < 300 && loc != tb.path("/review") {
		tb.h.t.Fatalf("POST review: Location %q", loc)
	}
	if want == http.StatusAccepted {
		running(tb.h.t, r)
	}
	return r
}

// getReview GETs tb's review and checks the answer's status.
func (tb *table) getReview(want int) *reply {
	tb.h.t.Helper()
	r := tb.h.do(http.MethodGet, tb.path("/review"), nil)
	if r.status != want {
		tb.h.t.Fatalf("GET review: %d, want %d: %s", r.status, want, r.body)
	}
	if want == http.StatusAccepted {
		running(tb.h.t, r)
	}
	return r
}

// running checks a 202's body.
func running(t testing.TB, r *reply) {
	t.Helper()
	if string(r.body) != "{\"status\":\"running\"}\n" {
		t.Fatalf("running answer %q", r.body)
	}
}

// waitReviews returns once rev has nothing in flight.
func waitReviews(t testing.TB, rev *reviews.Service) {
	t.Helper()
	if err := rev.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// strictReview decodes a review's body into the API's wire type, refusing any field the type
// does not have, and checks that it encodes back to the same bytes: the DTO is the engine's
// shape, field for field and in order.
func strictReview(t testing.TB, body []byte) api.Review {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var rv api.Review
	if err := dec.Decode(&rv); err != nil {
		t.Fatalf("the review is not an api.Review: %v\n%s", err, body)
	}
	again, err := json.Marshal(rv)
	if err != nil || string(append(again, '\n')) != string(body) {
		t.Fatalf("api.Review does not encode back to the stored bytes:\n%s\n%s", again, body)
	}
	return rv
}

// gatedEngine is the real engine behind a gate: each review says it started, then waits for
// open to be closed. calls counts the reviews computed.
type gatedEngine struct {
	started chan string
	open    chan struct{}
	calls   atomic.Int32
}

func newGatedEngine() *gatedEngine {
	return &gatedEngine{started: make(chan string, 16), open: make(chan struct{})}
}

func (g *gatedEngine) review(ctx context.Context, events []domain.Event, opts analysis.Options) (*analysis.Result, error) {
	g.calls.Add(1)
	g.started <- events[0].Data.(domain.MatchCreated).Commitment
	select {
	case <-g.open:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return analysis.Review(ctx, events, opts)
}
