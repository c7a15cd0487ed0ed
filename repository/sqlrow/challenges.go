package sqlrow

import (
	"gorm.io/gorm"

	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository"
)

// The challenges waiting for an answer (referee.MatchRecord.ChallengeCap), as both engines
// count them: waiting matches with a seat reserved for a player, rematches aside. Each walks
// only the player's waiting seats, by the index seats_player_status (migration 00009).
const (
	sqlChallengesSent = `SELECT count(*) FROM seats s JOIN matches m ON m.id = s.match_id
WHERE s.player_id = ? AND s.match_status = 'waiting' AND s.kind = 'human' AND m.rematch_of IS NULL
AND EXISTS (SELECT 1 FROM seats r WHERE r.match_id = s.match_id AND r.kind = 'open' AND r.player_id IS NOT NULL)`
	sqlChallengesReceived = `SELECT count(*) FROM seats s JOIN matches m ON m.id = s.match_id
WHERE s.player_id = ? AND s.match_status = 'waiting' AND s.kind = 'open' AND m.rematch_of IS NULL`
)

// CheckChallenges is repository.CheckChallenges over tx, the transaction that is to create
// rec: the caller makes sure that no other create counting the same players runs meanwhile
// (SQLite's one writer; PostgreSQL's advisory locks, LockPlayers).
func CheckChallenges(tx *gorm.DB, rec referee.MatchRecord) error {
	return repository.CheckChallenges(rec, func(player string, sent bool) (int, error) {
		q := sqlChallengesReceived
		if sent {
			q = sqlChallengesSent
		}
		var n int
		err := tx.Raw(q, player).Row().Scan(&n)
		return n, err
	})
}
