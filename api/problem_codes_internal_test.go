package api

import (
	"slices"
	"testing"

	"github.com/allfives/allfives/domain"
)

// TestProblemCodesAreWhatClientsGet: each row ProblemCodes gives the docs is the status, title
// and Retry-After a client really gets for that code, and the rows are sorted, once per code.
func TestProblemCodesAreWhatClientsGet(t *testing.T) {
	rows := ProblemCodes()
	if len(rows) != len(problemKinds) {
		t.Fatalf("%d rows for %d codes", len(rows), len(problemKinds))
	}
	for i, r := range rows {
		if i > 0 && (rows[i-1].Status > r.Status || rows[i-1].Status == r.Status && rows[i-1].Code >= r.Code) {
			t.Errorf("row %d (%s) is out of order after %s", i, r.Code, rows[i-1].Code)
		}
		if r.Code == domain.CodeInternal {
			continue // what problemFor answers to any error it does not know
		}
		p, retry, ok := problemFor(&apiError{code: r.Code, detail: "x", retryAfter: retryAfterOf[r.Code]})
		if !ok || p.Code != string(r.Code) || p.Status != r.Status || p.Title != r.Title || retry != r.RetryAfter {
			t.Errorf("%s: row %+v, a client gets %d %q (Retry-After %d)", r.Code, r, p.Status, p.Title, retry)
		}
	}
	// The domain's "not now" errors carry their Retry-After through problemFor themselves.
	busy := slices.IndexFunc(rows, func(r ProblemCode) bool { return r.Code == domain.CodeStoreBusy })
	if _, retry, _ := problemFor(domain.ErrStoreBusy); busy < 0 || retry == 0 || rows[busy].RetryAfter != retry {
		t.Errorf("STORE_BUSY is sent with Retry-After %d, its row is %+v", retry, rows[max(busy, 0)])
	}
}
