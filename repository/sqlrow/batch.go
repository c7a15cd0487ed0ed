package sqlrow

import (
	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository"
)

// IdempotencyRowOf is a's idempotency record as a row, nil when it has none. Zero seqs are
// filled with the seqs of the n events the append writes.
func IdempotencyRowOf(a referee.Append, n int) *IdempotencyRow {
	r := a.Idempotency
	if r == nil {
		return nil
	}
	row := &IdempotencyRow{
		MatchID: a.MatchID, Key: r.Key, Seat: r.Seat, Fingerprint: r.Fingerprint,
		FirstSeq: r.FirstSeq, LastSeq: r.LastSeq, CreatedAt: FormatTime(r.CreatedAt),
	}
	if row.FirstSeq == 0 && row.LastSeq == 0 {
		row.FirstSeq, row.LastSeq = a.Expected+1, a.Expected+n
	}
	return row
}

// Head is the last event of a log: its seq is the match's version, its hash the next prev.
type Head struct {
	Seq  int  `gorm:"column:seq"`
	Hash Blob `gorm:"column:hash"`
}

// HeadOf reads the last event of a match within tx; found is false when there is no match
// (a stored match always has at least match.created).
func HeadOf(tx *gorm.DB, id string) (h Head, found bool, err error) {
	res := tx.Raw("SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1", id).Scan(&h)
	return h, res.RowsAffected > 0, res.Error
}

// EncodeEvents checks that events are consecutive and encodes their payloads, the bytes that
// are both stored and hashed. Whether they start right after the log's head is checked under
// the store's lock (repository.StartsAt), after the version check, so that a stale caller
// hears of the conflict rather than of its seqs.
func EncodeEvents(id string, events []domain.Event) ([]EventRow, error) {
	payloads, err := repository.EncodeBatch(events)
	if err != nil {
		return nil, err
	}
	rows := make([]EventRow, len(events))
	for i, e := range events {
		rows[i] = EventRow{MatchID: id, Seq: e.Seq, Type: string(e.Type), Data: string(payloads[i]), At: FormatTime(e.At)}
	}
	return rows, nil
}

// EncodeAppend is what both stores' Append encode first: the append's event rows
// (EncodeEvents) and the read model of the match they leave, in the columns AppendColumns
// writes (the seat columns only when the append changes the seats).
func EncodeAppend(a referee.Append) ([]EventRow, MatchRow, error) {
	rows, err := EncodeEvents(a.MatchID, a.Events)
	if err != nil {
		return nil, MatchRow{}, err
	}
	m, err := readModel(a.Summary, a.Expected+len(rows), seatsChange(a.Events))
	return rows, m, err
}

// DecodeEvents is the events that rows hold, in their order.
func DecodeEvents(rows []EventRow) ([]domain.Event, error) {
	out := make([]domain.Event, len(rows))
	for i, r := range rows {
		e, err := r.Event()
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// Link fills the chain of rows, the encoded events, from prev, through repository.Link.
func Link(rows []EventRow, events []domain.Event, prev []byte) {
	payloads := make([][]byte, len(rows))
	for i, r := range rows {
		payloads[i] = []byte(r.Data)
	}
	for i, l := range repository.Link(prev, events, payloads) {
		rows[i].PrevHash, rows[i].Hash = Blob(l.PrevHash), Blob(l.Hash)
	}
}

// SeatRowOf is a seat record as a row of seats.
// PlayerID is set for a seat bound or reserved to a player; MatchCreatedAt, which goes with
// it, is the writer's to fill (the match's created_at, known at create, read back at a join).
func SeatRowOf(id string, st referee.SeatRecord) SeatRow {
	row := SeatRow{MatchID: id, Seat: st.Seat, Name: st.Name, Kind: string(st.Kind), Bot: st.Bot,
		TokenHash: Blob(st.TokenHash), InviteHash: Blob(st.InviteHash)}
	if st.Player != "" {
		p := st.Player
		row.PlayerID = &p
	}
	return row
}

// Creation is what creating a match writes: its matches row (seed and read model), its seat
// rows and its linked opening events.
type Creation struct {
	Match  MatchRow
	Seats  []SeatRow
	Events []EventRow
}

// NewCreation builds the rows of a new match, checking that its events open a log.
func NewCreation(rec referee.MatchRecord, events []domain.Event, sum domain.Summary) (Creation, error) {
	if rec.ID == "" {
		return Creation{}, domain.Invalidf("a match needs an id")
	}
	rows, err := EncodeEvents(rec.ID, events)
	if err != nil {
		return Creation{}, err
	}
	if err := repository.StartsAt(events, 0); err != nil {
		return Creation{}, err
	}
	Link(rows, events, nil)
	m, err := ReadModel(sum, len(rows))
	if err != nil {
		return Creation{}, err
	}
	m.ID, m.Seed, m.CreatedAt = rec.ID, rec.Seed.String(), FormatTime(rec.CreatedAt)
	if rec.RematchOf != "" {
		of := rec.RematchOf
		m.RematchOf = &of
	}
	seats := make([]SeatRow, len(rec.Seats))
	for i, st := range rec.Seats {
		seats[i] = SeatRowOf(rec.ID, st)
		if seats[i].PlayerID != nil {
			seats[i].MatchCreatedAt = &m.CreatedAt
		}
	}
	return Creation{Match: m, Seats: seats, Events: rows}, nil
}
