package sqlite

import (
	"context"
	"errors"
	"fmt"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/referee"
	"github.com/allfives/allfives/repository"
)

// Create stores a new match: its matches row (seed and read model), its seats and its opening
// events, in one transaction. An id already stored is a *domain.VersionConflictError with
// Expected 0: creating is appending to an empty log, and the same race rules apply.
func (s *Store) Create(ctx context.Context, rec referee.MatchRecord, events []domain.Event, sum domain.Summary) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "create match %s", rec.ID)
	if rec.ID == "" {
		return domain.Invalidf("a match needs an id")
	}
	rows, err := encodeEvents(rec.ID, events)
	if err != nil {
		return err
	}
	if err := repository.StartsAt(events, 0); err != nil {
		return err
	}
	link(rows, events, nil)
	m, err := readModel(sum, len(rows))
	if err != nil {
		return err
	}
	m.ID, m.Seed, m.CreatedAt = rec.ID, rec.Seed.String(), formatTime(rec.CreatedAt)
	seats := make([]seatRow, len(rec.Seats))
	for i, st := range rec.Seats {
		seats[i] = seatRowOf(rec.ID, st)
	}
	err = s.w.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if cur, found, err := headOf(tx, rec.ID); err != nil || found {
			if err == nil {
				err = &domain.VersionConflictError{Expected: 0, Current: cur.Seq}
			}
			return err
		}
		if err := tx.Create(&m).Error; err != nil {
			return err
		}
		if len(seats) > 0 {
			if err := tx.Create(&seats).Error; err != nil {
				return err
			}
		}
		return tx.Create(&rows).Error
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		// Unreachable while the existence check runs under the write lock; kept so that a
		// lost race can never surface as a raw constraint error.
		return &domain.VersionConflictError{Expected: 0, Current: s.version(ctx, rec.ID)}
	}
	return err
}

// Append adds a.Events after a.Expected with the read model and the idempotency record, in one
// BEGIN IMMEDIATE transaction: the head is read under the write lock, so the version check
// and the insert cannot be split by another writer.
func (s *Store) Append(ctx context.Context, a referee.Append) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "append to %s at %d", a.MatchID, a.Expected)
	// Encoding happens before the transaction so the write lock is held only for SQL.
	rows, err := encodeEvents(a.MatchID, a.Events)
	if err != nil {
		return err
	}
	m, err := readModel(a.Summary, a.Expected+len(rows))
	if err != nil {
		return err
	}
	idem := idempotencyRowOf(a, len(rows))
	err = s.w.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return appendTx(tx, a, rows, m, idem)
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return &domain.VersionConflictError{Expected: a.Expected, Current: s.version(ctx, a.MatchID)}
	}
	return err
}

// appendTx is the body of Append's transaction: the version check, the events, the read
// model and the idempotency record, all through tx.
func appendTx(tx *gorm.DB, a referee.Append, rows []eventRow, m matchRow, idem *idempotencyRow) error {
	head, found, err := headOf(tx, a.MatchID)
	switch {
	case err != nil:
		return err
	case !found:
		return fmt.Errorf("append to %q: %w", a.MatchID, domain.ErrMatchNotFound)
	case head.Seq != a.Expected:
		return &domain.VersionConflictError{Expected: a.Expected, Current: head.Seq}
	}
	if err := repository.StartsAt(a.Events, head.Seq); err != nil {
		return err
	}
	link(rows, a.Events, head.Hash)
	if err := tx.Create(&rows).Error; err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			// Unreachable under the write lock, but a clash on (match_id, seq) is by
			// definition a lost race: report it as one, never as a constraint error.
			if h, _, herr := headOf(tx, a.MatchID); herr == nil {
				return &domain.VersionConflictError{Expected: a.Expected, Current: h.Seq}
			}
		}
		return err
	}
	res := tx.Model(&matchRow{}).Where("id = ?", a.MatchID).Select(appendColumns(a.Summary, a.Events)).Updates(&m)
	if res.Error == nil && res.RowsAffected != 1 {
		res.Error = fmt.Errorf("match %s has events but no matches row", a.MatchID)
	}
	if res.Error != nil {
		return res.Error
	}
	for _, st := range a.Seats {
		row := seatRowOf(a.MatchID, st)
		res := tx.Model(&seatRow{}).Where("match_id = ? AND seat = ?", a.MatchID, st.Seat).
			Select("name", "kind", "bot", "token_hash", "invite_hash").Updates(&row)
		if res.Error == nil && res.RowsAffected != 1 {
			res.Error = fmt.Errorf("match %s has no seat %d", a.MatchID, st.Seat)
		}
		if res.Error != nil {
			return res.Error
		}
	}
	if idem == nil {
		return nil
	}
	if err := tx.Create(idem).Error; err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return fmt.Errorf("%w: key %q is already recorded for match %s", domain.ErrIdempotencyReuse, idem.Key, a.MatchID)
		}
		return err
	}
	return nil
}

// idempotencyRowOf is a's idempotency record as a row, nil when it has none. Zero seqs are
// filled with the seqs of the n events the append writes.
func idempotencyRowOf(a referee.Append, n int) *idempotencyRow {
	r := a.Idempotency
	if r == nil {
		return nil
	}
	row := &idempotencyRow{
		MatchID: a.MatchID, Key: r.Key, Seat: r.Seat, Fingerprint: r.Fingerprint,
		FirstSeq: r.FirstSeq, LastSeq: r.LastSeq, CreatedAt: formatTime(r.CreatedAt),
	}
	if row.FirstSeq == 0 && row.LastSeq == 0 {
		row.FirstSeq, row.LastSeq = a.Expected+1, a.Expected+n
	}
	return row
}

// head is the last event of a log: its seq is the match's version, its hash the next prev.
type head struct {
	Seq  int  `gorm:"column:seq"`
	Hash blob `gorm:"column:hash"`
}

// headOf reads the last event of a match within tx; found is false when there is no match
// (a stored match always has at least match.created).
func headOf(tx *gorm.DB, id string) (h head, found bool, err error) {
	res := tx.Raw("SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1", id).Scan(&h)
	return h, res.RowsAffected > 0, res.Error
}

// version reads a match's version through the read pool, for error reports after a failed
// transaction; 0 when it cannot tell.
func (s *Store) version(ctx context.Context, id string) int {
	h, _, err := headOf(s.r.WithContext(ctx), id)
	if err != nil {
		return 0
	}
	return h.Seq
}

// encodeEvents checks that events are consecutive and encodes their payloads, the bytes that
// are both stored and hashed. Whether they start right after the log's head is checked under
// the write lock (repository.StartsAt), after the version check, so that a stale caller hears of the
// conflict rather than of its seqs.
func encodeEvents(id string, events []domain.Event) ([]eventRow, error) {
	payloads, err := repository.EncodeBatch(events)
	if err != nil {
		return nil, err
	}
	rows := make([]eventRow, len(events))
	for i, e := range events {
		rows[i] = eventRow{MatchID: id, Seq: e.Seq, Type: string(e.Type), Data: string(payloads[i]), At: formatTime(e.At)}
	}
	return rows, nil
}

// link fills the chain of rows, the encoded events, from prev: the shared repository.Link.
func link(rows []eventRow, events []domain.Event, prev []byte) {
	payloads := make([][]byte, len(rows))
	for i, r := range rows {
		payloads[i] = []byte(r.Data)
	}
	for i, l := range repository.Link(prev, events, payloads) {
		rows[i].PrevHash, rows[i].Hash = blob(l.PrevHash), blob(l.Hash)
	}
}

// seatRowOf is a seat record as a row of seats.
func seatRowOf(id string, st referee.SeatRecord) seatRow {
	return seatRow{MatchID: id, Seat: st.Seat, Name: st.Name, Kind: string(st.Kind), Bot: st.Bot,
		TokenHash: blob(st.TokenHash), InviteHash: blob(st.InviteHash)}
}
