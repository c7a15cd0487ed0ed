package sqlrow

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/tournament"
)

// The key of a sealed match, read from the logs alone for the rebuild (docs/ratings.md,
// "Rebuilding"): a match of a duplicate round is rated when its round ends, so its key is the
// later of its own end and the time of the event that revealed its round's seed, round.ended
// or the tournament.cancelled that cut the round short. The live queue holds the same key:
// the transaction that appends that event writes its time as tournament_seals.revealed_at
// and moves the round's queued rows up to it (AppendTournament, Tx.Pending).

// roundEventRow is a tournament event that starts a round or reveals its seed.
type roundEventRow struct {
	TournamentID string `gorm:"column:tournament_id"`
	Type         string `gorm:"column:type"`
	Data         string `gorm:"column:data"`
	At           int64  `gorm:"column:at"`
}

// roundReveals maps the commitment of every duplicate round in the tournaments' logs to the
// time its seed was revealed, nil while the round runs.
func roundReveals(db *gorm.DB) (map[string]*time.Time, error) {
	var rows []roundEventRow
	err := db.Raw(`SELECT tournament_id, type, data, at FROM tournament_events
		WHERE type IN (?, ?, ?) ORDER BY tournament_id, seq`,
		string(tournament.TypeRound), string(tournament.TypeRoundEnd), string(tournament.TypeCancelled)).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	out := map[string]*time.Time{}
	rounds := map[string]map[int]string{} // tournament -> round -> commitment
	current := map[string]int{}           // tournament -> the last round started
	reveal := func(commitment string, at int64) {
		if when, ok := out[commitment]; commitment != "" && ok && when == nil {
			t := time.Unix(0, at).UTC()
			out[commitment] = &t
		}
	}
	for _, r := range rows {
		var err error
		switch tournament.EventType(r.Type) {
		case tournament.TypeRound:
			var d tournament.RoundStarted
			if err = json.Unmarshal([]byte(r.Data), &d); err == nil {
				current[r.TournamentID] = d.Round
				if d.Commitment != "" {
					if rounds[r.TournamentID] == nil {
						rounds[r.TournamentID] = map[int]string{}
					}
					rounds[r.TournamentID][d.Round], out[d.Commitment] = d.Commitment, nil
				}
			}
		case tournament.TypeRoundEnd:
			var d tournament.RoundEnded
			if err = json.Unmarshal([]byte(r.Data), &d); err == nil {
				reveal(rounds[r.TournamentID][d.Round], r.At)
			}
		case tournament.TypeCancelled:
			var d tournament.Cancelled
			if err = json.Unmarshal([]byte(r.Data), &d); err == nil && d.Seed != "" {
				reveal(rounds[r.TournamentID][current[r.TournamentID]], r.At)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("tournament %s: a %s that is not one: %w", r.TournamentID, r.Type, err)
		}
	}
	return out, nil
}

// sealedKeys is rows as the projection orders them: a match of a duplicate round keyed by the
// later of its end and its round's, one whose round runs left out; then sorted by key.
func sealedKeys(rows []QueueRow, reveals map[string]*time.Time) ([]ratings.Queued, error) {
	out := make([]ratings.Queued, 0, len(rows))
	for _, r := range rows {
		q, err := r.queued()
		if err != nil {
			return nil, fmt.Errorf("rated end of %s: %w", r.MatchID, err)
		}
		if r.Commitment != nil {
			if when, ok := reveals[*r.Commitment]; ok {
				if when == nil {
					continue // sealed: rated when its round ends
				}
				// Both times to the stored form's precision, as Pending compares them.
				if at, err := ParseTime(FormatTime(*when)); err == nil && at.After(q.EndedAt) {
					q.EndedAt = at
				}
			}
		}
		out = append(out, q)
	}
	slices.SortFunc(out, func(a, b ratings.Queued) int { return a.Key.Compare(b.Key) })
	return out, nil
}
