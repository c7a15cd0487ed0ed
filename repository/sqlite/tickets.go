package sqlite

import (
	"context"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
)

var _ players.TicketStore = (*Store)(nil)

// ticketRow is what taking a ticket reads back of its row (migrations/*/00007_tickets.sql).
type ticketRow struct {
	Seat       int    `gorm:"column:seat"`
	PlayerID   string `gorm:"column:player_id"`
	Credential []byte `gorm:"column:credential"`
	ExpiresAt  int64  `gorm:"column:expires_at"`
}

// PutTicket stores t under hash and deletes the tickets expired at now, in one transaction on
// the writer.
func (s *Store) PutTicket(ctx context.Context, hash []byte, t players.Ticket, now time.Time) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "store a ticket")
	s.writing.Lock()
	defer s.writing.Unlock()
	tx := s.w.WithContext(ctx).Begin()
	if tx.Error != nil {
		return tx.Error
	}
	defer tx.Rollback()
	if err := tx.Exec("DELETE FROM tickets WHERE expires_at <= ?", now.UnixNano()).Error; err != nil {
		return err
	}
	if err := tx.Exec("INSERT INTO tickets (match_id, hash, seat, player_id, credential, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
		t.Match, hash, t.Seat, t.Player, t.Credential, t.ExpiresAt.UnixNano()).Error; err != nil {
		return err
	}
	return tx.Commit().Error
}

// TakeTicket deletes the ticket of match under hash and returns it if it expires after now:
// one DELETE ... RETURNING on the writer, so a ticket is taken at most once.
func (s *Store) TakeTicket(ctx context.Context, match string, hash []byte, now time.Time) (_ players.Ticket, _ bool, err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "take a ticket")
	s.writing.Lock()
	defer s.writing.Unlock()
	var rows []ticketRow
	err = s.w.WithContext(ctx).Raw("DELETE FROM tickets WHERE match_id = ? AND hash = ? RETURNING seat, player_id, credential, expires_at", match, hash).Scan(&rows).Error
	if err != nil || len(rows) == 0 {
		return players.Ticket{}, false, err
	}
	return ticketOf(match, rows[0], now)
}

// ticketOf is the ticket of match a taken row holds, ok only if it expires after now.
func ticketOf(match string, r ticketRow, now time.Time) (players.Ticket, bool, error) {
	exp := time.Unix(0, r.ExpiresAt).UTC()
	if !exp.After(now) {
		return players.Ticket{}, false, nil
	}
	return players.Ticket{Match: match, Seat: r.Seat, Player: r.PlayerID, Credential: r.Credential, ExpiresAt: exp}, true, nil
}
