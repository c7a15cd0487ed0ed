package storetest

import (
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/reviews"
)

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
		Code: domain.CodeRecordCorrupt, FinishedAt: Base.Add(time.Second)})
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
