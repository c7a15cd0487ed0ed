package sqlrow

import (
	"errors"
	"fmt"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// Match reads match id's record, with the secret seed, and its read model through db, bound
// to the caller's context. A seed that does not parse is ErrRecordCorrupt; a read model that
// does not decode is reported in StoredMatch.SummaryErr, since the record alone is enough to
// play and audit the match.
func Match(db *gorm.DB, id string) (referee.StoredMatch, error) {
	var rows []MatchRow
	if err := db.Where("id = ?", id).Limit(1).Find(&rows).Error; err != nil {
		return referee.StoredMatch{}, err
	}
	if len(rows) == 0 {
		return referee.StoredMatch{}, fmt.Errorf("match %q: %w", id, domain.ErrMatchNotFound)
	}
	r := rows[0]
	var seats []SeatRow
	if err := db.Select(SeatColumns).Where("match_id = ?", id).Order("seat").Find(&seats).Error; err != nil {
		return referee.StoredMatch{}, fmt.Errorf("seats: %w", err)
	}
	seed, err := domain.ParseSeed(r.Seed)
	if err != nil {
		// %v, not %w: a seed the store cannot read back is damage to the store, an internal
		// error, not the client's bad seed.
		return referee.StoredMatch{}, fmt.Errorf("%w: stored seed: %v", storeerr.ErrRecordCorrupt, err)
	}
	// A read model that does not decode is reported beside the record, not as an error: the
	// record is enough to play and audit the match, and the audit reports the read model.
	created, cerr := ParseTime(r.CreatedAt)
	sum, serr := r.Summary()
	rec := referee.MatchRecord{ID: r.ID, Seed: seed, CreatedAt: created, Seats: make([]referee.SeatRecord, len(seats))}
	if r.RematchOf != nil {
		rec.RematchOf = *r.RematchOf
	}
	if r.NextMatchID != nil {
		rec.NextMatchID = *r.NextMatchID
	}
	for i, st := range seats {
		rec.Seats[i] = referee.SeatRecord{Seat: st.Seat, Name: st.Name, Kind: domain.PlayerKind(st.Kind), Bot: st.Bot,
			TokenHash: []byte(st.TokenHash), InviteHash: []byte(st.InviteHash)}
		if st.PlayerID != nil {
			rec.Seats[i].Player = *st.PlayerID
		}
	}
	return referee.StoredMatch{Record: rec, Summary: sum, SummaryErr: errors.Join(cerr, serr)}, nil
}
