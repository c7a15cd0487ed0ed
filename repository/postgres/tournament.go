package postgres

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/tournament"
	"github.com/allfives/allfives/repository/sqlrow"
)

// Tournaments' logs (sqlrow/tournament.go), shared by every instance: the primary key of
// tournament_events settles two instances appending at one version.

var _ tournaments.Store = (*Store)(nil)

// CreateTournament stores a new tournament (tournaments.Store).
func (s *Store) CreateTournament(ctx context.Context, row tournaments.Row, links []tournament.Link) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "create tournament %s", row.ID)
	defer duplicateIsConflict(&err)
	return s.inTx(ctx, func(tx *gorm.DB) error { return sqlrow.CreateTournament(tx, row, links) })
}

// AppendTournament appends to a tournament's log (tournaments.Store).
func (s *Store) AppendTournament(ctx context.Context, a tournaments.Append) (err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "append to tournament %s", a.ID)
	defer duplicateIsConflict(&err)
	return s.inTx(ctx, func(tx *gorm.DB) error { return sqlrow.AppendTournament(tx, a) })
}

// Tournament reads a tournament (tournaments.Store).
func (s *Store) Tournament(ctx context.Context, id string) (_ tournaments.Row, _ []tournament.Link, err error) {
	defer classify(&err)
	return sqlrow.Tournament(s.db.WithContext(ctx), id)
}

// Tournaments lists tournaments (tournaments.Store).
func (s *Store) Tournaments(ctx context.Context, statuses []tournament.Status, limit int) (_ []tournaments.Row, err error) {
	defer classify(&err)
	return sqlrow.Tournaments(s.db.WithContext(ctx), statuses, limit)
}

// DueTournaments lists the sweeper's tournaments (tournaments.Store).
func (s *Store) DueTournaments(ctx context.Context, now time.Time) (_ []string, err error) {
	defer classify(&err)
	return sqlrow.DueTournaments(s.db.WithContext(ctx), now)
}

// Organising counts an organiser's live tournaments (tournaments.Store).
func (s *Store) Organising(ctx context.Context, organiser string) (_ int, err error) {
	defer classify(&err)
	return sqlrow.Organising(s.db.WithContext(ctx), organiser)
}

// SealedCommitment says whether a commitment is sealed (tournaments.Store).
func (s *Store) SealedCommitment(ctx context.Context, commitment string) (_ bool, err error) {
	defer classify(&err)
	return sqlrow.SealedCommitment(s.db.WithContext(ctx), commitment)
}

// RoundSeed reads a round's secret seed (tournaments.Store).
func (s *Store) RoundSeed(ctx context.Context, id string, round int) (_ []byte, err error) {
	defer classify(&err)
	return sqlrow.RoundSeed(s.db.WithContext(ctx), id, round)
}

// duplicateIsConflict turns the primary key's refusal of a second event at one seq (another
// instance appended first) into tournaments.ErrConflict.
func duplicateIsConflict(errp *error) {
	if *errp != nil && sqlState(*errp) == codeUniqueViolation {
		*errp = tournaments.ErrConflict
	}
}
