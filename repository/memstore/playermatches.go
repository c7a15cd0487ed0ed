package memstore

import (
	"context"
	"slices"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository"
)

// PlayerMatches lists the matches with a seat bound or reserved to q.Player, newest first, in
// the history's order and with its cursor.
func (s *Store) PlayerMatches(ctx context.Context, q referee.PlayerMatchQuery) (referee.PlayerMatchPage, error) {
	if err := ctx.Err(); err != nil {
		return referee.PlayerMatchPage{}, err
	}
	var after *repository.Cursor
	if q.Cursor != "" {
		k, err := repository.DecodeCursor(q.Cursor)
		if err != nil {
			return referee.PlayerMatchPage{}, err
		}
		after = &k
	}
	limit := q.Limit
	if limit <= 0 {
		limit = repository.DefaultHistoryLimit
	}
	var items []referee.PlayerMatch
	s.mu.RLock()
	for _, m := range s.matches {
		k := repository.Cursor{CreatedAt: m.rec.CreatedAt, ID: m.rec.ID}
		i := slices.IndexFunc(m.rec.Seats, func(sr referee.SeatRecord) bool { return sr.Player == q.Player })
		switch {
		case q.Player == "" || i < 0, after != nil && !k.Before(*after), q.Status != "" && m.sum.Status != q.Status:
			continue
		case q.Turn && (m.sum.Status != domain.StatusInProgress || m.sum.Turn == nil || *m.sum.Turn != m.rec.Seats[i].Seat):
			continue
		}
		items = append(items, referee.PlayerMatch{Seat: m.rec.Seats[i].Seat,
			HistoryItem: referee.HistoryItem{ID: m.rec.ID, CreatedAt: m.rec.CreatedAt, Summary: copySummary(m.sum), NextMatchID: m.rec.NextMatchID}})
	}
	s.mu.RUnlock()
	page := referee.PlayerMatchPage{}
	page.Matches, page.NextCursor = newestFirst(items, func(p referee.PlayerMatch) referee.HistoryItem { return p.HistoryItem }, limit)
	return page, nil
}
