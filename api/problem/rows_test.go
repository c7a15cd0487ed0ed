package problem

import (
	"slices"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// TestRowsAreWhatClientsGet: each row ProblemCodes gives the docs is the status, title
// and Retry-After a client really gets for that code, and the rows are sorted, once per code.
func TestRowsAreWhatClientsGet(t *testing.T) {
	rows := Rows()
	if len(rows) != len(kinds) {
		t.Fatalf("%d rows for %d codes", len(rows), len(kinds))
	}
	for i, r := range rows {
		if i > 0 && (rows[i-1].Status > r.Status || rows[i-1].Status == r.Status && rows[i-1].Code >= r.Code) {
			t.Errorf("row %d (%s) is out of order after %s", i, r.Code, rows[i-1].Code)
		}
		if r.Code == domain.CodeInternal {
			continue // what For answers to any error it does not know
		}
		p, ok := For(&Error{Code: r.Code, Detail: "x", RetryAfter: retryAfterOf[r.Code]})
		retry := p.RetryAfter
		if !ok || p.Code != r.Code || p.Status != r.Status || p.Title != r.Title || retry != r.RetryAfter {
			t.Errorf("%s: row %+v, a client gets %d %q (Retry-After %d)", r.Code, r, p.Status, p.Title, retry)
		}
	}
	// The domain's "not now" errors carry their Retry-After through For themselves.
	busy := slices.IndexFunc(rows, func(r Row) bool { return r.Code == storeerr.CodeStoreBusy })
	if p, _ := For(storeerr.ErrStoreBusy); busy < 0 || p.RetryAfter == 0 || rows[busy].RetryAfter != p.RetryAfter {
		t.Errorf("STORE_BUSY is sent with Retry-After %d, its row is %+v", p.RetryAfter, rows[max(busy, 0)])
	}
}
