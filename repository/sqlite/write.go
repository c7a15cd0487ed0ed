package sqlite

import (
	"context"
	"errors"

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
	if err == nil {
		last := rows[len(rows)-1]
		s.heads.put(rec.ID, head{Seq: last.Seq, Hash: last.Hash})
	}
	return err
}

// Append adds a.Events after a.Expected with the read model and the idempotency record. The
// events are encoded here, in the caller's goroutine; the committer then writes them in the
// next group commit (commit.go), under their own savepoint, and Append returns once that
// commit is durable or the append has failed.
func (s *Store) Append(ctx context.Context, a referee.Append) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "append to %s at %d", a.MatchID, a.Expected)
	rows, err := encodeEvents(a.MatchID, a.Events)
	if err != nil {
		return err
	}
	m, err := readModel(a.Summary, a.Expected+len(rows))
	if err != nil {
		return err
	}
	w := &appendWrite{
		id: a.MatchID, expected: a.Expected, events: a.Events, rows: rows, model: m,
		cols: appendColumns(a.Summary, a.Events), idem: idempotencyRowOf(a, len(rows)),
	}
	for _, st := range a.Seats {
		w.seats = append(w.seats, seatRowOf(a.MatchID, st))
	}
	return s.gc.submit(ctx, w)
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
