package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// ReviewStore is a store that keeps matches and their reviews.
type ReviewStore interface {
	referee.EventStore
	reviews.Store
}

// RunReviews checks store against the reviews.Store contract. open must return a new,
// empty store for each call; it is called once per subtest.
func RunReviews(t *testing.T, open func(t *testing.T) ReviewStore) {
	tests := []struct {
		name string
		fn   func(*testing.T, ReviewStore)
	}{
		{"NeverAsked", testReviewNeverAsked},
		{"StartThenFinish", testReviewStartThenFinish},
		{"DoneIsFinal", testReviewDoneIsFinal},
		{"FailedStartsAgain", testReviewFailedStartsAgain},
		{"PerMatchAndMethod", testReviewPerMatchAndMethod},
		{"UnknownMatch", testReviewUnknownMatch},
		{"FinishWithoutStart", testReviewFinishWithoutStart},
		{"Concurrent", testReviewConcurrent},
		{"Status", testReviewStatus},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

// reviewJSON is a stored answer with what a byte-exact store must keep: key order, a
// non-ASCII name, spacing and the final newline.
const reviewJSON = "{\"status\":\"done\",\"method\":\"m/1\",\"seats\":[{\"seat\":0,\"name\":\"Zoë\"}], \"decisions\":[]}\n"

const method1, method2 = "allfives-review/1 test", "allfives-review/2 test"

// reviewMatch creates a match for reviews to hang on.
func reviewMatch(t *testing.T, s ReviewStore, id string) {
	t.Helper()
	mustCreate(t, s, NewFixture(t, id, Base, 0))
}

func mustReview(t *testing.T, s ReviewStore, id, method string) reviews.Record {
	t.Helper()
	rec, ok, err := s.Review(ctx, id, method)
	if err != nil || !ok {
		t.Fatalf("review of %s by %s: ok %v, %v", id, method, ok, err)
	}
	if rec.MatchID != id || rec.Method != method {
		t.Fatalf("review of %s by %s reads as %s by %s", id, method, rec.MatchID, rec.Method)
	}
	return rec
}

func mustStart(t *testing.T, s ReviewStore, id, method string, at time.Time) (reviews.Record, bool) {
	t.Helper()
	rec, started, err := s.StartReview(ctx, id, method, at)
	if err != nil {
		t.Fatalf("start review of %s: %v", id, err)
	}
	return rec, started
}

func mustFinish(t *testing.T, s ReviewStore, rec reviews.Record) {
	t.Helper()
	if err := s.FinishReview(ctx, rec); err != nil {
		t.Fatalf("finish review of %s: %v", rec.MatchID, err)
	}
}

func done(id, method string, result string, at time.Time) reviews.Record {
	return reviews.Record{MatchID: id, Method: method, Status: reviews.StatusDone, Result: []byte(result), FinishedAt: at}
}

func testReviewNeverAsked(t *testing.T, s ReviewStore) {
	reviewMatch(t, s, "m-review")
	if rec, ok, err := s.Review(ctx, "m-review", method1); err != nil || ok {
		t.Fatalf("a review never asked for: %+v ok %v, %v", rec, ok, err)
	}
}

// testReviewStartThenFinish: a started review is running with its request time; once finished
// it is done with the result byte for byte and both times to the nanosecond, in UTC.
func testReviewStartThenFinish(t *testing.T, s ReviewStore) {
	reviewMatch(t, s, "m-review")
	asked := Base.Add(time.Hour).In(time.FixedZone("east", 3600))
	rec, started := mustStart(t, s, "m-review", method1, asked)
	if !started || rec.Status != reviews.StatusRunning || !rec.RequestedAt.Equal(asked) {
		t.Fatalf("start: %+v started %v", rec, started)
	}
	got := mustReview(t, s, "m-review", method1)
	if got.Status != reviews.StatusRunning || !got.RequestedAt.Equal(asked) || got.RequestedAt.Location() != time.UTC ||
		!got.FinishedAt.IsZero() || got.Result != nil || got.Code != "" {
		t.Fatalf("running review reads as %+v", got)
	}
	finished := asked.Add(3*time.Second + 7)
	mustFinish(t, s, done("m-review", method1, reviewJSON, finished))
	got = mustReview(t, s, "m-review", method1)
	if got.Status != reviews.StatusDone || string(got.Result) != reviewJSON || got.Code != "" {
		t.Fatalf("done review reads as %+v (%q)", got, got.Result)
	}
	if !got.RequestedAt.Equal(asked) || !got.FinishedAt.Equal(finished) || got.FinishedAt.Location() != time.UTC {
		t.Fatalf("times %v %v, want %v %v in UTC", got.RequestedAt, got.FinishedAt, asked, finished)
	}
	// A caller changing the bytes it was given changes nothing stored.
	got.Result[0] = 'X'
	if again := mustReview(t, s, "m-review", method1); string(again.Result) != reviewJSON {
		t.Fatalf("the stored result changed with the caller's copy: %q", again.Result)
	}
}

// testReviewDoneIsFinal: once done, neither a new start nor another outcome changes a review.
func testReviewDoneIsFinal(t *testing.T, s ReviewStore) {
	reviewMatch(t, s, "m-review")
	mustStart(t, s, "m-review", method1, Base)
	mustFinish(t, s, done("m-review", method1, reviewJSON, Base.Add(time.Second)))
	rec, started := mustStart(t, s, "m-review", method1, Base.Add(time.Minute))
	if started || rec.Status != reviews.StatusDone || string(rec.Result) != reviewJSON {
		t.Fatalf("start of a done review: %+v started %v", rec, started)
	}
	mustFinish(t, s, reviews.Record{MatchID: "m-review", Method: method1, Status: reviews.StatusFailed,
		Code: storeerr.CodeRecordCorrupt, FinishedAt: Base.Add(time.Hour)})
	mustFinish(t, s, done("m-review", method1, "{}\n", Base.Add(time.Hour)))
	got := mustReview(t, s, "m-review", method1)
	if got.Status != reviews.StatusDone || string(got.Result) != reviewJSON || !got.FinishedAt.Equal(Base.Add(time.Second)) ||
		!got.RequestedAt.Equal(Base) {
		t.Fatalf("a done review changed: %+v", got)
	}
}

// testReviewFailedStartsAgain: a failed review keeps its code and no result; asking again
// starts it afresh, the code gone.
func testReviewFailedStartsAgain(t *testing.T, s ReviewStore) {
	reviewMatch(t, s, "m-review")
	mustStart(t, s, "m-review", method1, Base)
	mustFinish(t, s, reviews.Record{MatchID: "m-review", Method: method1, Status: reviews.StatusFailed,
		Code: storeerr.CodeRecordCorrupt, FinishedAt: Base.Add(time.Second)})
	got := mustReview(t, s, "m-review", method1)
	if got.Status != reviews.StatusFailed || got.Code != storeerr.CodeRecordCorrupt || got.Result != nil {
		t.Fatalf("failed review reads as %+v", got)
	}
	rec, started := mustStart(t, s, "m-review", method1, Base.Add(time.Minute))
	if !started || rec.Status != reviews.StatusRunning {
		t.Fatalf("start of a failed review: %+v started %v", rec, started)
	}
	got = mustReview(t, s, "m-review", method1)
	if got.Status != reviews.StatusRunning || got.Code != "" || !got.RequestedAt.Equal(Base.Add(time.Minute)) || !got.FinishedAt.IsZero() {
		t.Fatalf("restarted review reads as %+v", got)
	}
	// A running review started again is running still, asked for at the new time.
	mustStart(t, s, "m-review", method1, Base.Add(2*time.Minute))
	if got := mustReview(t, s, "m-review", method1); got.Status != reviews.StatusRunning || !got.RequestedAt.Equal(Base.Add(2*time.Minute)) {
		t.Fatalf("running review started again reads as %+v", got)
	}
}

// testReviewPerMatchAndMethod: a review belongs to one match and one method.
func testReviewPerMatchAndMethod(t *testing.T, s ReviewStore) {
	reviewMatch(t, s, "m-a")
	reviewMatch(t, s, "m-b")
	mustStart(t, s, "m-a", method1, Base)
	mustFinish(t, s, done("m-a", method1, reviewJSON, Base))
	for _, k := range [][2]string{{"m-a", method2}, {"m-b", method1}} {
		if rec, ok, err := s.Review(ctx, k[0], k[1]); err != nil || ok {
			t.Fatalf("review of %s by %s: %+v ok %v, %v", k[0], k[1], rec, ok, err)
		}
	}
	if _, started := mustStart(t, s, "m-a", method2, Base); !started {
		t.Fatal("another method's review did not start")
	}
	mustFinish(t, s, done("m-a", method2, "{\"method\":\"2\"}\n", Base))
	if a1, a2 := mustReview(t, s, "m-a", method1), mustReview(t, s, "m-a", method2); string(a1.Result) != reviewJSON || string(a2.Result) != "{\"method\":\"2\"}\n" {
		t.Fatalf("two methods' reviews: %q and %q", a1.Result, a2.Result)
	}
}

// testReviewUnknownMatch: a review hangs on a stored match.
func testReviewUnknownMatch(t *testing.T, s ReviewStore) {
	if _, _, err := s.StartReview(ctx, "m-none", method1, Base); !errors.Is(err, domain.ErrMatchNotFound) {
		t.Fatalf("start review of no match: %v", err)
	}
	if err := s.FinishReview(ctx, done("m-none", method1, reviewJSON, Base)); !errors.Is(err, domain.ErrMatchNotFound) {
		t.Fatalf("finish review of no match: %v", err)
	}
	if _, ok, err := s.Review(ctx, "m-none", method1); err != nil || ok {
		t.Fatalf("review of no match: ok %v, %v", ok, err)
	}
}

// testReviewFinishWithoutStart: an outcome stored with no start before it (a start lost
// with a store that was restored, say) is stored all the same.
func testReviewFinishWithoutStart(t *testing.T, s ReviewStore) {
	reviewMatch(t, s, "m-review")
	mustFinish(t, s, done("m-review", method1, reviewJSON, Base.Add(time.Second)))
	got := mustReview(t, s, "m-review", method1)
	if got.Status != reviews.StatusDone || string(got.Result) != reviewJSON || !got.FinishedAt.Equal(Base.Add(time.Second)) {
		t.Fatalf("review finished without a start reads as %+v", got)
	}
}

// testReviewConcurrent: starts and outcomes racing on one review and on others all succeed,
// and each review ends done with its bytes.
func testReviewConcurrent(t *testing.T, s ReviewStore) {
	const matches, racers = 3, 4
	for m := range matches {
		reviewMatch(t, s, fmt.Sprintf("m-%d", m))
	}
	var wg sync.WaitGroup
	errs := make(chan error, matches*racers*2)
	for m := range matches {
		for r := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := fmt.Sprintf("m-%d", m)
				if _, _, err := s.StartReview(ctx, id, method1, Base.Add(time.Duration(r))); err != nil {
					errs <- err
				}
				if err := s.FinishReview(ctx, done(id, method1, id+"\n", Base.Add(time.Second))); err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for m := range matches {
		id := fmt.Sprintf("m-%d", m)
		if got := mustReview(t, s, id, method1); got.Status != reviews.StatusDone || !bytes.Equal(got.Result, []byte(id+"\n")) {
			t.Errorf("%s after the race: %+v", id, got)
		}
	}
}

// testReviewStatus: ReviewStatus says what Review says of the status at every stage of a
// review's life (never asked, running, failed, running again, done and final), per match and
// method, and nothing of a match not stored.
func testReviewStatus(t *testing.T, s ReviewStore) {
	reviewMatch(t, s, "m-review")
	reviewMatch(t, s, "m-other")
	want := func(stage string, st reviews.Status, ok bool) {
		t.Helper()
		got, stored, err := s.ReviewStatus(ctx, "m-review", method1)
		if err != nil || stored != ok || got != st {
			t.Fatalf("%s: status %q stored %v, %v; want %q stored %v", stage, got, stored, err, st, ok)
		}
		if rec, found, err := s.Review(ctx, "m-review", method1); err != nil || found != ok || rec.Status != st {
			t.Fatalf("%s: the review reads %+v found %v, %v; its status %q", stage, rec, found, err, got)
		}
	}
	want("never asked", "", false)
	mustStart(t, s, "m-review", method1, Base)
	want("started", reviews.StatusRunning, true)
	mustFinish(t, s, reviews.Record{MatchID: "m-review", Method: method1, Status: reviews.StatusFailed,
		Code: storeerr.CodeRecordCorrupt, FinishedAt: Base.Add(time.Second)})
	want("failed", reviews.StatusFailed, true)
	mustStart(t, s, "m-review", method1, Base.Add(time.Minute))
	want("started again", reviews.StatusRunning, true)
	mustFinish(t, s, done("m-review", method1, reviewJSON, Base.Add(2*time.Minute)))
	want("done", reviews.StatusDone, true)
	mustStart(t, s, "m-review", method1, Base.Add(time.Hour))
	want("asked again once done", reviews.StatusDone, true)
	for _, k := range [][2]string{{"m-review", method2}, {"m-other", method1}, {"m-none", method1}} {
		if st, ok, err := s.ReviewStatus(ctx, k[0], k[1]); err != nil || ok || st != "" {
			t.Fatalf("status of %s by %s: %q ok %v, %v", k[0], k[1], st, ok, err)
		}
	}
}
