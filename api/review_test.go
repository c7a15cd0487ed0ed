package api_test

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// TestReviewRoutes: the review's life through the real router on SQLite: never asked (404
// REVIEW_NOT_FOUND), asked (202 with a Location), done (200, the same bytes every time, also
// to a POST), and the refusals every match route makes (no match, a stray parameter, a
// token not this match's).
func TestReviewRoutes(t *testing.T) {
	h := newHarness(t, apitest.WithStore(sqliteReviewStore(t)), apitest.WithoutPlayers(), apitest.Reviews(nil))
	rev := h.Reviews
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		h.do(m, "/api/v1/matches/nosuchmatch/review", nil).problem(t, 404, "MATCH_NOT_FOUND")
	}
	tb := h.finishedMatch(seed1)
	p := tb.getReview(404).problem(t, 404, "REVIEW_NOT_FOUND")
	if p.Detail != reviews.ErrNotRequested.Error() {
		t.Fatalf("REVIEW_NOT_FOUND detail %q", p.Detail)
	}
	h.do(http.MethodPost, tb.path("/review?method=x"), nil).problem(t, 400, "INVALID_REQUEST")
	h.do(http.MethodGet, tb.path("/review"), nil, auth("not-a-token")...).problem(t, 401, "UNAUTHORIZED")

	tb.askReview(http.StatusAccepted)
	waitReviews(t, rev)
	done := tb.getReview(http.StatusOK)
	if ct := done.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("review Content-Type %q", ct)
	}
	rv := strictReview(t, done.body)
	if rv.Status != "done" || rv.Method != rev.Method() || rv.Method != apitest.SmallReview.Method() || len(rv.Seats) != 2 {
		t.Fatalf("review: status %s, method %q, %d seats", rv.Status, rv.Method, len(rv.Seats))
	}
	for _, s := range rv.Seats {
		if c := s.Classes; c.Best+c.Good+c.Inaccuracy+c.Mistake+c.Blunder != s.Judged {
			t.Fatalf("seat %d: classes %+v do not add up to %d judged", s.Seat, c, s.Judged)
		}
	}
	if len(rv.Decisions) == 0 {
		t.Fatal("a whole match with no decision to judge")
	}
	again := tb.getReview(http.StatusOK)
	posted := tb.askReview(http.StatusOK)
	if string(again.body) != string(done.body) || string(posted.body) != string(done.body) {
		t.Fatal("the same review answered different bytes")
	}
}

// TestReviewOfLiveMatchRefused: a match in progress is 409 MATCH_NOT_FINISHED to both routes,
// nothing is stored, and reviewing a finished match leaves its record as it was: the audit
// and the export answer the same bytes after the review as before.
func TestReviewOfLiveMatchRefused(t *testing.T) {
	store := sqliteReviewStore(t)
	h := newHarness(t, apitest.WithStore(store), apitest.WithoutPlayers(), apitest.Reviews(nil))
	rev := h.Reviews
	live := h.create(seed1, false, "human", "greedy")
	live.askReview(409).problem(t, 409, "MATCH_NOT_FINISHED")
	live.getReview(409).problem(t, 409, "MATCH_NOT_FINISHED")
	if _, ok, err := store.Review(context.Background(), live.id, rev.Method()); err != nil || ok {
		t.Fatalf("a live match's review was stored: %v %v", ok, err)
	}

	tb := h.finishedMatch(seed1)
	auditBefore, exportBefore := tb.getRaw("/audit"), tb.getRaw("/export")
	tb.askReview(http.StatusAccepted)
	waitReviews(t, rev)
	tb.getReview(http.StatusOK)
	// The export's match says where the review stands (TestReviewStateInTheView); the record
	// itself is the same bytes.
	exportAfter := strings.Replace(tb.getRaw("/export"), `"review":"done"`, `"review":"none"`, 1)
	if tb.getRaw("/audit") != auditBefore || exportAfter != exportBefore {
		t.Fatal("the match's audit or export changed with its review")
	}
	if a := tb.audit(-1); !a.OK {
		t.Fatalf("the audit after the review fails: %+v", a)
	}
}

// getRaw is the 200 body of GET path on tb.
func (tb *table) getRaw(suffix string) string {
	tb.h.t.Helper()
	r := tb.h.do(http.MethodGet, tb.path(suffix), nil)
	if r.status != http.StatusOK {
		tb.h.t.Fatalf("GET %s: %d %s", suffix, r.status, r.body)
	}
	return string(r.body)
}

// TestReviewOneJobForTwoAsks: while a review is computed, asking again (POST or GET) is one
// job answered running; once done it is answered from the store, here and by a new reviewer
// on the same store (a restarted server), with no engine run.
func TestReviewOneJobForTwoAsks(t *testing.T) {
	store := sqliteReviewStore(t)
	g := newGatedEngine()
	h := newHarness(t, apitest.WithStore(store), apitest.WithoutPlayers(), apitest.Reviews(func(c *reviews.Config) { c.Engine = g.review }))
	rev := h.Reviews
	tb := h.finishedMatch(seed1)
	tb.askReview(http.StatusAccepted)
	<-g.started
	tb.askReview(http.StatusAccepted)
	tb.getReview(http.StatusAccepted)
	close(g.open)
	waitReviews(t, rev)
	body := tb.getReview(http.StatusOK).body
	tb.askReview(http.StatusOK)
	if n := g.calls.Load(); n != 1 {
		t.Fatalf("%d reviews computed for one match", n)
	}

	g2 := newGatedEngine()
	h2 := newHarness(t, apitest.WithStore(store), apitest.WithoutPlayers(), apitest.Reviews(func(c *reviews.Config) { c.Engine = g2.review }))
	tb2 := tb.on(h2)
	if got := tb2.getReview(http.StatusOK).body; string(got) != string(body) {
		t.Fatal("another reviewer on the store answered other bytes")
	}
	tb2.askReview(http.StatusOK)
	if n := g2.calls.Load(); n != 0 {
		t.Fatalf("a stored review was computed again %d times", n)
	}
}

// TestReviewQueueFull: with one worker held and a queue of one, a third match's review is
// 503 UNAVAILABLE with Retry-After, and stores nothing; the ones in flight still answer 202,
// and once the queue drains the third is taken.
func TestReviewQueueFull(t *testing.T) {
	store := sqliteReviewStore(t)
	g := newGatedEngine()
	h := newHarness(t, apitest.WithStore(store), apitest.WithoutPlayers(), apitest.Reviews(func(c *reviews.Config) { c.Engine, c.Workers, c.Queue = g.review, 1, 1 }))
	rev := h.Reviews
	a, b, c := h.finishedMatch(seed1), h.finishedMatch(""), h.finishedMatch("")
	a.askReview(http.StatusAccepted)
	<-g.started // a's review holds the worker
	b.askReview(http.StatusAccepted)
	full := c.askReview(http.StatusServiceUnavailable)
	full.problem(t, 503, "UNAVAILABLE")
	if ra := full.header.Get("Retry-After"); ra != strconv.Itoa(reviews.RetryAfter) {
		t.Fatalf("Retry-After %q", ra)
	}
	if _, ok, err := store.Review(context.Background(), c.id, rev.Method()); err != nil || ok {
		t.Fatalf("a refused review was stored: %v %v", ok, err)
	}
	c.getReview(404).problem(t, 404, "REVIEW_NOT_FOUND")
	a.askReview(http.StatusAccepted)
	b.getReview(http.StatusAccepted)
	close(g.open)
	waitReviews(t, rev)
	c.askReview(http.StatusAccepted)
	waitReviews(t, rev)
	for _, tb := range []*table{a, b, c} {
		strictReview(t, tb.getReview(http.StatusOK).body)
	}
	if n := g.calls.Load(); n != 3 {
		t.Fatalf("%d reviews computed for three matches", n)
	}
}

// TestReviewLeftRunningIsComputedWhenAsked: a review a stopped server left running (stored
// running, no worker on it) is queued again by the next GET, and done.
func TestReviewLeftRunningIsComputedWhenAsked(t *testing.T) {
	store := sqliteReviewStore(t)
	h := newHarness(t, apitest.WithStore(store), apitest.WithoutPlayers(), apitest.Reviews(nil))
	rev := h.Reviews
	tb := h.finishedMatch(seed1)
	if _, started, err := store.StartReview(context.Background(), tb.id, rev.Method(), time.Now()); err != nil || !started {
		t.Fatalf("start: %v %v", started, err)
	}
	tb.getReview(http.StatusAccepted)
	waitReviews(t, rev)
	strictReview(t, tb.getReview(http.StatusOK).body)
}

// TestReviewOfBadLogIsRecordCorrupt: a log the engine refuses (here the revealed seed does not
// keep the commitment) is stored failed and answered 500 RECORD_CORRUPT; asking again with
// POST tries again.
func TestReviewOfBadLogIsRecordCorrupt(t *testing.T) {
	store := sqliteReviewStore(t)
	var calls int
	tamper := func(ctx context.Context, events []domain.Event, opts analysis.Options) (*analysis.Result, error) {
		calls++
		events = slices.Clone(events)
		last := &events[len(events)-1]
		ended := last.Data.(domain.MatchEnded)
		ended.Seed = "00" + ended.Seed[2:]
		if ended.Seed == last.Data.(domain.MatchEnded).Seed {
			ended.Seed = "11" + ended.Seed[2:]
		}
		last.Data = ended
		return analysis.Review(ctx, events, opts)
	}
	h := newHarness(t, apitest.WithStore(store), apitest.WithoutPlayers(), apitest.Reviews(func(c *reviews.Config) { c.Engine = tamper }))
	rev := h.Reviews
	tb := h.finishedMatch(seed1)
	tb.askReview(http.StatusAccepted)
	waitReviews(t, rev)
	tb.getReview(500).problem(t, 500, "RECORD_CORRUPT")
	rec, ok, err := store.Review(context.Background(), tb.id, rev.Method())
	if err != nil || !ok || rec.Status != reviews.StatusFailed || rec.Code != storeerr.CodeRecordCorrupt {
		t.Fatalf("stored %+v %v %v", rec, ok, err)
	}
	tb.askReview(http.StatusAccepted)
	waitReviews(t, rev)
	if calls != 2 {
		t.Fatalf("%d engine runs, want 2", calls)
	}
}

// TestReviewIsTheSameBytesEverywhere: one match's log, copied into a second SQLite file and a
// PostgreSQL database, is reviewed to the same bytes by each, and those are the engine's own.
func TestReviewIsTheSameBytesEverywhere(t *testing.T) {
	first := sqliteReviewStore(t)
	h := newHarness(t, apitest.WithStore(first), apitest.WithoutPlayers(), apitest.Reviews(nil))
	rev := h.Reviews
	tb := h.finishedMatch("")
	tb.askReview(http.StatusAccepted)
	waitReviews(t, rev)
	want := tb.getReview(http.StatusOK).body

	events := copyMatch(t, first, tb.id)
	same := func(t *testing.T, s reviewStore) {
		copyMatch(t, first, tb.id, s)
		h2 := newHarness(t, apitest.WithStore(s), apitest.WithoutPlayers(), apitest.Reviews(nil))
		rev2 := h2.Reviews
		tb2 := tb.on(h2)
		tb2.askReview(http.StatusAccepted)
		waitReviews(t, rev2)
		if got := tb2.getReview(http.StatusOK).body; string(got) != string(want) {
			t.Fatalf("the copy was reviewed to other bytes:\n%s\n%s", got, want)
		}
	}
	t.Run("sqlite", func(t *testing.T) { same(t, sqliteReviewStore(t)) })
	t.Run("postgres", func(t *testing.T) {
		pg, err := postgres.Open(context.Background(), pgtest.URL(t), postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pg.Close() })
		same(t, pg)
	})
	res, err := analysis.Review(context.Background(), events, apitest.SmallReview)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := reviews.Encode(res); err != nil || string(b) != string(want) {
		t.Fatalf("the engine's own encoding differs (%v):\n%s", err, b)
	}
}

// copyMatch copies match id's record and log from one store into others, as stored, and
// returns the log.
func copyMatch(t *testing.T, from reviewStore, id string, to ...reviewStore) []domain.Event {
	t.Helper()
	ctx := context.Background()
	sm, err := from.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	events, err := from.Events(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := domain.Resume(id, sm.Record.Seed, events)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range to {
		if err := s.Create(ctx, sm.Record, events, m.Summary()); err != nil {
			t.Fatal(err)
		}
	}
	return events
}
