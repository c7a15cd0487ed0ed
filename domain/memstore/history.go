package memstore

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/allfives/allfives/domain"
)

// DefaultLimit is the page size when a HistoryQuery leaves Limit at zero; the SQLite store
// uses the same.
const DefaultLimit = 50

// cursorTime is the fixed-width UTC form of a time inside a cursor, the same form the SQLite
// store keeps in its created_at column.
const cursorTime = "2006-01-02T15:04:05.000000000Z"

// History lists matches newest first (created_at, then id, both descending), filtered by q.
// Since is inclusive and Until exclusive. The cursor names the last match of the previous
// page, so pages stay put when newer matches arrive.
func (s *Store) History(ctx context.Context, q domain.HistoryQuery) (domain.HistoryPage, error) {
	if err := ctx.Err(); err != nil {
		return domain.HistoryPage{}, err
	}
	var (
		after    key
		hasAfter bool
	)
	if q.Cursor != "" {
		k, err := decodeCursor(q.Cursor)
		if err != nil {
			return domain.HistoryPage{}, err
		}
		after, hasAfter = k, true
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}

	s.mu.RLock()
	var items []domain.HistoryItem
	for _, m := range s.matches {
		k := key{at: m.rec.CreatedAt, id: m.rec.ID}
		if matches(m, q) && (!hasAfter || k.before(after)) {
			items = append(items, domain.HistoryItem{ID: m.rec.ID, CreatedAt: m.rec.CreatedAt, Summary: copySummary(m.sum)})
		}
	}
	s.mu.RUnlock()

	slices.SortFunc(items, func(a, b domain.HistoryItem) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	page := domain.HistoryPage{Matches: items}
	if len(items) > limit {
		page.Matches = items[:limit]
		last := page.Matches[limit-1]
		page.NextCursor = encodeCursor(key{at: last.CreatedAt, id: last.ID})
	}
	if page.Matches == nil {
		page.Matches = []domain.HistoryItem{}
	}
	return page, nil
}

// matches applies the filters of q; zero fields do not filter.
func matches(m *match, q domain.HistoryQuery) bool {
	if q.Status != "" && m.sum.Status != q.Status {
		return false
	}
	if !q.Since.IsZero() && m.rec.CreatedAt.Before(q.Since) {
		return false
	}
	if !q.Until.IsZero() && !m.rec.CreatedAt.Before(q.Until) {
		return false
	}
	if q.Player != "" {
		return slices.ContainsFunc(m.rec.Seats, func(s domain.SeatRecord) bool { return s.Name == q.Player })
	}
	return true
}

// key is a match's place in the history order.
type key struct {
	at time.Time
	id string
}

// before says whether k comes after o in newest-first order, i.e. is older.
func (k key) before(o key) bool {
	if c := k.at.Compare(o.at); c != 0 {
		return c < 0
	}
	return k.id < o.id
}

// encodeCursor makes the opaque cursor: base64url of "v1|<created_at>|<id>". The version tag
// lets the format change later without misreading old cursors.
func encodeCursor(k key) string {
	return base64.RawURLEncoding.EncodeToString([]byte("v1|" + k.at.UTC().Format(cursorTime) + "|" + k.id))
}

func decodeCursor(c string) (key, error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return key{}, fmt.Errorf("%w: malformed cursor", domain.ErrInvalid)
	}
	parts := strings.SplitN(string(raw), "|", 3)
	if len(parts) != 3 || parts[0] != "v1" || parts[2] == "" {
		return key{}, fmt.Errorf("%w: malformed cursor", domain.ErrInvalid)
	}
	at, err := time.Parse(cursorTime, parts[1])
	if err != nil {
		return key{}, fmt.Errorf("%w: malformed cursor", domain.ErrInvalid)
	}
	return key{at: at, id: parts[2]}, nil
}
