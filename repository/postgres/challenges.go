package postgres

import (
	"slices"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository"
	"github.com/allfives/allfives/repository/sqlrow"
)

// checkChallenges refuses rec, in tx, when it is a challenge beyond its cap
// (referee.MatchRecord.ChallengeCap). Creates on several instances could each count the
// same player's challenges before any commits, and all pass the cap: each takes, first, a
// transaction-level advisory lock per player it counts, in one order (no deadlock), so that
// creates counting one player take turns, and each counts what the one before committed.
func checkChallenges(tx *gorm.DB, rec referee.MatchRecord) error {
	if rec.ChallengeCap <= 0 {
		return nil
	}
	from, to := repository.ChallengeParties(rec)
	if len(to) == 0 {
		return nil
	}
	parties := slices.Compact(slices.Sorted(slices.Values(append(from, to...))))
	for _, p := range parties {
		// The two-key form: its key space is not the one-key form's the ratings' lock uses.
		if err := tx.Exec("SELECT pg_advisory_xact_lock(hashtext('allfives.challenges'), hashtext(?))", p).Error; err != nil {
			return err
		}
	}
	return sqlrow.CheckChallenges(tx, rec)
}
