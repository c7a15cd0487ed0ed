package postgres

import (
	"context"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/referee"
	"github.com/allfives/allfives/repository"
)

// History lists matches newest first: created_at descending, then id descending, an order in
// which every match has exactly one place. Since is inclusive, Until exclusive; Player is an
// exact seat name. Pages are keyset-paged: the cursor names the last match of the previous page
// ("v1|<created_at>|<id>", base64url), so a page never repeats or skips a match when others are
// created meanwhile, and each page is one index range scan however deep it is. The seed is
// never selected.
func (s *Store) History(ctx context.Context, q referee.HistoryQuery) (_ referee.HistoryPage, err error) {
	defer domain.Wrap(&err, "history")
	limit := q.Limit
	if limit <= 0 {
		limit = repository.DefaultHistoryLimit
	}
	db := s.db.WithContext(ctx).Model(&matchRow{}).
		Select("id", "status", "players", "scores", "winner_side", "hands", "version", "created_at", "updated_at")
	if q.Cursor != "" {
		c, err := repository.DecodeCursor(q.Cursor)
		if err != nil {
			return referee.HistoryPage{}, err
		}
		// A row value comparison walks the (created_at, id) index from the cursor on.
		db = db.Where("(created_at, id) < (?, ?)", formatTime(c.CreatedAt), c.ID)
	}
	if q.Status != "" {
		db = db.Where("status = ?", string(q.Status))
	}
	if q.Player != "" {
		db = db.Where("id IN (SELECT match_id FROM seats WHERE name = ?)", q.Player)
	}
	if !q.Since.IsZero() {
		db = db.Where("created_at >= ?", formatTime(q.Since))
	}
	if !q.Until.IsZero() {
		db = db.Where("created_at < ?", formatTime(q.Until))
	}
	var rows []matchRow
	// One row more than the page tells whether there is a next page without a COUNT.
	if err := db.Order("created_at DESC, id DESC").Limit(limit + 1).Find(&rows).Error; err != nil {
		return referee.HistoryPage{}, err
	}
	page := referee.HistoryPage{Matches: make([]referee.HistoryItem, 0, min(len(rows), limit))}
	for i, r := range rows {
		if i == limit {
			last := page.Matches[limit-1]
			page.NextCursor = repository.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}.Encode()
			break
		}
		it, err := r.item()
		if err != nil {
			return referee.HistoryPage{}, fmt.Errorf("match %s: %w", r.ID, err)
		}
		page.Matches = append(page.Matches, it)
	}
	return page, nil
}
