package repository

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/allfives/allfives/domain"
)

// DefaultHistoryLimit is the page size when a HistoryQuery leaves Limit at zero, the same as
// memstore's.
const DefaultHistoryLimit = 50

// History lists matches newest first: created_at descending, then id descending, an order in
// which every match has exactly one place. Since is inclusive, Until exclusive; Player is an
// exact seat name. Pages are keyset-paged: the cursor names the last match of the previous page
// ("v1|<created_at>|<id>", base64url), so a page never repeats or skips a match when others are
// created meanwhile, and each page is one index range scan however deep it is. The seed is
// never selected.
func (s *Store) History(ctx context.Context, q domain.HistoryQuery) (_ domain.HistoryPage, err error) {
	defer wrap(&err, "history")
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultHistoryLimit
	}
	db := s.r.WithContext(ctx).Model(&matchRow{}).
		Select("id", "status", "players", "scores", "winner_side", "hands", "version", "created_at", "updated_at")
	if q.Cursor != "" {
		at, id, err := decodeCursor(q.Cursor)
		if err != nil {
			return domain.HistoryPage{}, err
		}
		// A row value comparison walks the (created_at, id) index from the cursor on.
		db = db.Where("(created_at, id) < (?, ?)", at, id)
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
		return domain.HistoryPage{}, err
	}
	page := domain.HistoryPage{Matches: make([]domain.HistoryItem, 0, min(len(rows), limit))}
	for i, r := range rows {
		if i == limit {
			last := rows[limit-1]
			page.NextCursor = encodeCursor(last.CreatedAt, last.ID)
			break
		}
		it, err := r.item()
		if err != nil {
			return domain.HistoryPage{}, fmt.Errorf("match %s: %w", r.ID, err)
		}
		page.Matches = append(page.Matches, it)
	}
	return page, nil
}

// encodeCursor makes the opaque cursor from a row's stored created_at and id. The "v1" tag
// lets the format change without misreading old cursors.
func encodeCursor(createdAt, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("v1|" + createdAt + "|" + id))
}

// decodeCursor checks a cursor and returns the created_at (in stored form) and id it names.
func decodeCursor(c string) (createdAt, id string, err error) {
	bad := fmt.Errorf("%w: malformed cursor", domain.ErrInvalid)
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return "", "", bad
	}
	parts := strings.SplitN(string(raw), "|", 3)
	if len(parts) != 3 || parts[0] != "v1" || parts[2] == "" {
		return "", "", bad
	}
	// Round-trip the time so that only the stored form compares, never some other text.
	t, err := parseTime(parts[1])
	if err != nil || formatTime(t) != parts[1] {
		return "", "", bad
	}
	return parts[1], parts[2], nil
}
