package memstore

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository"
)

// History lists matches newest first (created_at, then id, both descending), filtered by q.
// Since is inclusive and Until exclusive. The cursor names the last match of the previous
// page, so pages stay put when newer matches arrive.
func (s *Store) History(ctx context.Context, q referee.HistoryQuery) (referee.HistoryPage, error) {
	if err := ctx.Err(); err != nil {
		return referee.HistoryPage{}, err
	}
	var (
		after    repository.Cursor
		hasAfter bool
	)
	if q.Cursor != "" {
		k, err := repository.DecodeCursor(q.Cursor)
		if err != nil {
			return referee.HistoryPage{}, err
		}
		after, hasAfter = k, true
	}
	limit := q.Limit
	if limit <= 0 {
		limit = repository.DefaultHistoryLimit
	}

	s.mu.RLock()
	var items []referee.HistoryItem
	for _, m := range s.matches {
		k := repository.Cursor{CreatedAt: m.rec.CreatedAt, ID: m.rec.ID}
		if matches(m, q) && (!hasAfter || k.Before(after)) {
			items = append(items, referee.HistoryItem{ID: m.rec.ID, CreatedAt: m.rec.CreatedAt, Summary: copySummary(m.sum), NextMatchID: m.rec.NextMatchID})
		}
	}
	s.mu.RUnlock()

	page := referee.HistoryPage{}
	page.Matches, page.NextCursor = newestFirst(items, func(h referee.HistoryItem) referee.HistoryItem { return h }, limit)
	return page, nil
}

// newestFirst sorts items newest first by (created_at, id), as the SQL stores' indexes order
// them, and cuts a page of limit with the cursor after its last item ("" on the last page).
func newestFirst[T any](items []T, item func(T) referee.HistoryItem, limit int) ([]T, string) {
	slices.SortFunc(items, func(a, b T) int {
		x, y := item(a), item(b)
		if c := y.CreatedAt.Compare(x.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(y.ID, x.ID)
	})
	if items == nil {
		items = []T{}
	}
	if len(items) <= limit {
		return items, ""
	}
	last := item(items[limit-1])
	return items[:limit], repository.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}.Encode()
}

// matches applies the filters of q; zero fields do not filter.
func matches(m *match, q referee.HistoryQuery) bool {
	if q.Status != "" && m.sum.Status != q.Status {
		return false
	}
	if q.Status == domain.StatusWaiting && (!m.sum.Listed || len(m.sum.OpenSeats) == 0) {
		return false // the lobby lists only listed matches with an open seat
	}
	if !q.Since.IsZero() && m.rec.CreatedAt.Before(q.Since) {
		return false
	}
	if !q.Until.IsZero() && !m.rec.CreatedAt.Before(q.Until) {
		return false
	}
	if q.Player != "" {
		return slices.ContainsFunc(m.rec.Seats, func(s referee.SeatRecord) bool { return s.Name == q.Player })
	}
	return true
}

// Due lists the matches the clock must act on: a turn deadline at or before q.Now, or waiting
// with the last event at or before q.WaitingBefore; soonest first, at most q.Limit.
func (s *Store) Due(ctx context.Context, q referee.DueQuery) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type due struct {
		id string
		at time.Time
	}
	var all []due
	s.mu.RLock()
	for id, m := range s.matches {
		switch {
		case m.sum.Deadline != nil && !m.sum.Deadline.After(q.Now):
			all = append(all, due{id, *m.sum.Deadline})
		case m.sum.Status == domain.StatusWaiting && !q.WaitingBefore.IsZero() && !m.sum.UpdatedAt.After(q.WaitingBefore):
			all = append(all, due{id, m.sum.UpdatedAt})
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(all, func(a, b due) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	if q.Limit > 0 && len(all) > q.Limit {
		all = all[:q.Limit]
	}
	ids := make([]string, len(all))
	for i, d := range all {
		ids[i] = d.id
	}
	return ids, nil
}
