package sqlrow

import (
	"log/slog"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository"
)

// History lists matches newest first: created_at descending, then id descending, an order in
// which every match has exactly one place. Since is inclusive, Until exclusive; Player is an
// exact seat name. Pages are keyset-paged: the cursor names the last match of the previous page
// ("v1|<created_at>|<id>", base64url), so a page never repeats or skips a match when others are
// created meanwhile, and each page is one index range scan however deep it is. The seed is
// never selected.
//
// db is bound to the caller's context; listed is the SQL that is true of a listed row in the
// store's dialect, written as its matches_lobby index writes it so that the index serves the
// lobby. A row that cannot be read is left out of the page and logged on log.
func History(db *gorm.DB, log *slog.Logger, listed string, q referee.HistoryQuery) (referee.HistoryPage, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = repository.DefaultHistoryLimit
	}
	db = db.Model(&MatchRow{}).
		Select("id", "status", "players", "scores", "winner_side", "hands", "version", "created_at", "updated_at",
			"listed", "open_seats", "target", "turn_seconds", "turn", "turn_deadline", "seeded", "next_match_id")
	if q.Cursor != "" {
		c, err := repository.DecodeCursor(q.Cursor)
		if err != nil {
			return referee.HistoryPage{}, err
		}
		// A row value comparison walks the (created_at, id) index from the cursor on.
		db = db.Where("(created_at, id) < (?, ?)", FormatTime(c.CreatedAt), c.ID)
	}
	if q.Status != "" {
		db = db.Where("status = ?", string(q.Status))
	}
	if q.Status == domain.StatusWaiting {
		// The lobby: only listed matches with an open seat (the matches_lobby index).
		db = db.Where(listed + " AND open_seats <> '[]'")
	}
	if q.Player != "" {
		db = db.Where("id IN (SELECT match_id FROM seats WHERE name = ?)", q.Player)
	}
	if !q.Since.IsZero() {
		db = db.Where("created_at >= ?", FormatTime(q.Since))
	}
	if !q.Until.IsZero() {
		db = db.Where("created_at < ?", FormatTime(q.Until))
	}
	var rows []MatchRow
	// One row more than the page tells whether there is a next page without a COUNT.
	if err := db.Order("created_at DESC, id DESC").Limit(limit + 1).Find(&rows).Error; err != nil {
		return referee.HistoryPage{}, err
	}
	page := referee.HistoryPage{Matches: make([]referee.HistoryItem, 0, min(len(rows), limit))}
	for _, r := range rows[:min(len(rows), limit)] {
		it, err := r.Item()
		if err != nil {
			// One damaged row must not take the page down with it: it is left out and logged,
			// and the match's audit reports what is wrong with it.
			log.Error("history: a matches row cannot be read; it is left out of the page", "match", r.ID, "err", err)
			continue
		}
		page.Matches = append(page.Matches, it)
	}
	// The row past the page says there is a next one. It goes on after the last row listed;
	// rows left out after it are read (and left out) again by the next page.
	if n := len(page.Matches); len(rows) > limit && n > 0 {
		last := page.Matches[n-1]
		page.NextCursor = repository.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}.Encode()
	}
	return page, nil
}

// Due lists the matches the clock must act on, soonest first: a turn deadline at or before
// q.Now (the matches_turn_deadline index), then waiting matches whose last event is at or
// before q.WaitingBefore (matches_waiting_updated). Times are stored as fixed-width text (in
// PostgreSQL with COLLATE "C"), so text order is time order. db is bound to the caller's context.
func Due(db *gorm.DB, q referee.DueQuery) ([]string, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	var ids []string
	if err := db.Model(&MatchRow{}).Where("turn_deadline IS NOT NULL AND turn_deadline <= ?", FormatTime(q.Now)).
		Order("turn_deadline, id").Limit(limit).Pluck("id", &ids).Error; err != nil {
		return nil, err
	}
	if q.WaitingBefore.IsZero() || len(ids) >= limit {
		return ids, nil
	}
	var waiting []string
	if err := db.Model(&MatchRow{}).Where("status = 'waiting' AND updated_at <= ?", FormatTime(q.WaitingBefore)).
		Order("updated_at, id").Limit(limit-len(ids)).Pluck("id", &waiting).Error; err != nil {
		return nil, err
	}
	return append(ids, waiting...), nil
}
