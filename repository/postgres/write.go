package postgres

import (
	"context"
	"fmt"
	"strconv"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository"
	"github.com/allfives/allfives/repository/sqlrow"
)

// Channel is the LISTEN/NOTIFY channel on which every append announces "<version> <match id>".
const Channel = "allfives_appended"

// Create stores a new match: its matches row (seed and read model), its seats and its opening
// events, in one transaction, refused when it is a challenge beyond rec.ChallengeCap. An id already stored is a *domain.VersionConflictError with
// Expected 0: creating is appending to an empty log, and the same race rules apply.
func (s *Store) Create(ctx context.Context, rec referee.MatchRecord, events []domain.Event, sum domain.Summary) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "create match %s", rec.ID)
	c, err := sqlrow.NewCreation(rec, events, sum)
	if err != nil {
		return err
	}
	taken := false
	err = s.inTx(ctx, func(tx *gorm.DB) error {
		if err := checkChallenges(tx, rec); err != nil {
			return err
		}
		// ON CONFLICT DO NOTHING waits for a racing insert of the same id to commit or roll
		// back, then inserts nothing: the loser learns it lost without an aborted transaction.
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&c.Match)
		if res.Error != nil {
			return res.Error
		}
		if taken = res.RowsAffected == 0; taken {
			return nil
		}
		if len(c.Seats) > 0 {
			if err := tx.Create(&c.Seats).Error; err != nil {
				return err
			}
		}
		return tx.Create(&c.Events).Error
	})
	if err == nil && taken {
		return &domain.VersionConflictError{Expected: 0, Current: s.version(ctx, rec.ID)}
	}
	return err
}

// Append adds a.Events after a.Expected with the read model, the seat records a.Seats
// replaces, the idempotency record and the notification, in one transaction that first locks the match's row: appends to one match
// queue there, so the version check and the insert cannot be split by another writer, on this
// instance or any other.
func (s *Store) Append(ctx context.Context, a referee.Append) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "append to %s at %d", a.MatchID, a.Expected)
	rows, m, err := sqlrow.EncodeAppend(a)
	if err != nil {
		return err
	}
	idem := sqlrow.IdempotencyRowOf(a, len(rows))
	err = s.inTx(ctx, func(tx *gorm.DB) error {
		return appendTx(tx, a, rows, m, idem)
	})
	if sqlState(err) == codeUniqueViolation {
		// Unreachable under the row lock, but a clash on (match_id, seq) is by definition a
		// lost race: report it as one, never as a constraint error.
		return &domain.VersionConflictError{Expected: a.Expected, Current: s.version(ctx, a.MatchID)}
	}
	return err
}

// appendTx is the body of Append's transaction: the lock and version check, the events, the
// read model, the seats, the idempotency record and the NOTIFY, all through tx.
func appendTx(tx *gorm.DB, a referee.Append, rows []sqlrow.EventRow, m sqlrow.MatchRow, idem *sqlrow.IdempotencyRow) error {
	var locked []string
	if err := tx.Raw("SELECT id FROM matches WHERE id = ? FOR UPDATE", a.MatchID).Scan(&locked).Error; err != nil {
		return err
	}
	if len(locked) == 0 {
		return fmt.Errorf("append to %q: %w", a.MatchID, domain.ErrMatchNotFound)
	}
	// At READ COMMITTED this statement sees every append committed before the lock was ours.
	head, found, err := sqlrow.HeadOf(tx, a.MatchID)
	switch {
	case err != nil:
		return err
	case !found:
		return fmt.Errorf("match %s has a matches row but no events", a.MatchID)
	case head.Seq != a.Expected:
		return &domain.VersionConflictError{Expected: a.Expected, Current: head.Seq}
	}
	if err := repository.StartsAt(a.Events, head.Seq); err != nil {
		return err
	}
	sqlrow.Link(rows, a.Events, head.Hash)
	if err := tx.Create(&rows).Error; err != nil {
		return err
	}
	res := tx.Model(&sqlrow.MatchRow{}).Where("id = ?", a.MatchID).Select(sqlrow.AppendColumns(a.Summary, a.Events)).Updates(&m)
	if res.Error == nil && res.RowsAffected != 1 {
		res.Error = fmt.Errorf("match %s has events but no matches row", a.MatchID)
	}
	if res.Error != nil {
		return res.Error
	}
	if err := updateSeats(tx, a.MatchID, a.Seats); err != nil {
		return err
	}
	if idem != nil {
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(idem)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			// The primary key is (match_id, seat, key): only this seat's own record clashes.
			return fmt.Errorf("%w: key %q is already recorded for seat %d of match %s", domain.ErrIdempotencyReuse, idem.Key, idem.Seat, a.MatchID)
		}
	}
	// Delivered to every listener when, and only if, the transaction commits.
	return tx.Exec("SELECT pg_notify(?, ?)", Channel, strconv.Itoa(m.Version)+" "+a.MatchID).Error
}

// version reads a match's version, for error reports after a failed transaction; 0 when it
// cannot tell.
func (s *Store) version(ctx context.Context, id string) int {
	h, _, err := sqlrow.HeadOf(s.db.WithContext(ctx), id)
	if err != nil {
		return 0
	}
	return h.Seq
}

// updateSeats replaces the stored records of the seats an append carries (a join or a leave),
// within tx; every seat named must exist.
func updateSeats(tx *gorm.DB, id string, seats []referee.SeatRecord) error {
	for _, st := range seats {
		row := sqlrow.SeatRowOf(id, st)
		// match_created_at goes with player_id, NULL with NULL (migrations/postgres/00005_players.sql).
		created := gorm.Expr("NULL")
		if row.PlayerID != nil {
			created = gorm.Expr("(SELECT created_at FROM matches WHERE id = ?)", id)
		}
		res := tx.Model(&sqlrow.SeatRow{}).Where("match_id = ? AND seat = ?", id, st.Seat).
			Updates(map[string]any{"name": row.Name, "kind": row.Kind, "bot": row.Bot, "token_hash": row.TokenHash,
				"invite_hash": row.InviteHash, "player_id": row.PlayerID, "match_created_at": created})
		if res.Error == nil && res.RowsAffected != 1 {
			res.Error = fmt.Errorf("match %s has no seat %d", id, st.Seat)
		}
		if res.Error != nil {
			return res.Error
		}
	}
	return nil
}
