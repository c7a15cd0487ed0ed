package postgres

import (
	"context"
	"time"

	"gorm.io/gorm"

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

// PutTicket stores t under hash and deletes the tickets expired at now, in one transaction.
func (s *Store) PutTicket(ctx context.Context, hash []byte, t players.Ticket, now time.Time) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "store a ticket")
	return s.inTx(ctx, func(tx *gorm.DB) error {
		if err := tx.Exec("DELETE FROM tickets WHERE expires_at <= ?", now.UnixNano()).Error; err != nil {
			return err
		}
		return tx.Exec("INSERT INTO tickets (match_id, hash, seat, player_id, credential, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
			t.Match, hash, t.Seat, t.Player, t.Credential, t.ExpiresAt.UnixNano()).Error
	})
}

// TakeTicket deletes the ticket of match under hash and returns it if it expires after now.
// It is one DELETE ... RETURNING: of two instances racing for a ticket, the second waits on
// the first's row lock, then finds the row gone.
func (s *Store) TakeTicket(ctx context.Context, match string, hash []byte, now time.Time) (_ players.Ticket, _ bool, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "take a ticket")
	var rows []ticketRow
	err = s.db.WithContext(ctx).Raw("DELETE FROM tickets WHERE match_id = ? AND hash = ? RETURNING seat, player_id, credential, expires_at", match, hash).Scan(&rows).Error
	if err != nil || len(rows) == 0 {
		return players.Ticket{}, false, err
	}
	exp := time.Unix(0, rows[0].ExpiresAt).UTC()
	if !exp.After(now) {
		return players.Ticket{}, false, nil
	}
	r := rows[0]
	return players.Ticket{Match: match, Seat: r.Seat, Player: r.PlayerID, Credential: r.Credential, ExpiresAt: exp}, true, nil
}
