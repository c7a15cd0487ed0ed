package sqlrow

import (
	"log/slog"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository"
)

// playerMatchRow is a matches row joined to the player's seat of it.
type playerMatchRow struct {
	MatchRow
	PlayerSeat int `gorm:"column:player_seat"`
}

// PlayerMatches lists one player's matches newest first, from the player's seats: one
// backward walk of the partial index seats_player_matches (player_id, match_created_at,
// match_id) from the cursor on, each seat joined to its matches row by primary key, so a page
// costs the same with a million matches stored as with ten (migrations/*/00005_players.sql).
// The order and the cursor are the history's: (created_at, id) descending. q.Status, and
// q.Turn, which keeps the matches in progress whose turn is the player's seat, walk the
// player's matches of that status alone, by seats_player_status. The seed is never selected.
func PlayerMatches(db *gorm.DB, log *slog.Logger, q referee.PlayerMatchQuery) (referee.PlayerMatchPage, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = repository.DefaultHistoryLimit
	}
	db = db.Table("seats AS s").Joins("JOIN matches AS m ON m.id = s.match_id").
		Select("m.id, m.status, m.players, m.scores, m.winner_side, m.hands, m.version, m.created_at, m.updated_at, "+
			"m.listed, m.open_seats, m.target, m.turn_seconds, m.turn, m.turn_deadline, m.seeded, m.next_match_id, s.seat AS player_seat").
		Where("s.player_id = ?", q.Player)
	if q.Cursor != "" {
		c, err := repository.DecodeCursor(q.Cursor)
		if err != nil {
			return referee.PlayerMatchPage{}, err
		}
		db = db.Where("(s.match_created_at, s.match_id) < (?, ?)", FormatTime(c.CreatedAt), c.ID)
	}
	// A status (and turn, which is in progress) walks seats_player_status instead, where the
	// player's matches of that status are together: only they are joined to their matches rows
	// (migrations/*/00009_player_match_status.sql). The matches row's own status is checked
	// too, the truth the copy on the seat follows.
	if q.Status != "" {
		db = db.Where("s.match_status = ? AND m.status = ?", string(q.Status), string(q.Status))
	}
	if q.Turn {
		db = db.Where("s.match_status = 'in_progress' AND m.status = 'in_progress' AND m.turn = s.seat")
	}
	var rows []playerMatchRow
	if err := db.Order("s.match_created_at DESC, s.match_id DESC").Limit(limit + 1).Scan(&rows).Error; err != nil {
		return referee.PlayerMatchPage{}, err
	}
	page := referee.PlayerMatchPage{Matches: make([]referee.PlayerMatch, 0, min(len(rows), limit))}
	for _, r := range rows[:min(len(rows), limit)] {
		it, err := r.Item()
		if err != nil {
			log.Error("player matches: a matches row cannot be read; it is left out of the page", "match", r.ID, "err", err)
			continue
		}
		page.Matches = append(page.Matches, referee.PlayerMatch{HistoryItem: it, Seat: r.PlayerSeat})
	}
	if n := len(page.Matches); len(rows) > limit && n > 0 {
		last := page.Matches[n-1]
		page.NextCursor = repository.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}.Encode()
	}
	return page, nil
}
