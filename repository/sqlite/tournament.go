package sqlite

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/tournament"
	"github.com/allfives/allfives/repository/sqlrow"
)

// Tournaments' logs (sqlrow/tournament.go): writes on the writer under Store.writing, reads
// on the read pool.

var _ tournaments.Store = (*Store)(nil)

// CreateTournament stores a new tournament (tournaments.Store).
func (s *Store) CreateTournament(ctx context.Context, row tournaments.Row, links []tournament.Link) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "create tournament %s", row.ID)
	return s.writeTx(ctx, func(tx *gorm.DB) error { return sqlrow.CreateTournament(tx, row, links) })
}

// AppendTournament appends to a tournament's log (tournaments.Store).
func (s *Store) AppendTournament(ctx context.Context, a tournaments.Append) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "append to tournament %s", a.ID)
	return s.writeTx(ctx, func(tx *gorm.DB) error { return sqlrow.AppendTournament(tx, a) })
}

// Tournament reads a tournament (tournaments.Store).
func (s *Store) Tournament(ctx context.Context, id string) (_ tournaments.Row, _ []tournament.Link, err error) {
	defer s.read(&err)
	return sqlrow.Tournament(s.r.WithContext(ctx), id)
}

// Tournaments lists tournaments (tournaments.Store).
func (s *Store) Tournaments(ctx context.Context, statuses []tournament.Status, limit int) (_ []tournaments.Row, err error) {
	defer s.read(&err)
	return sqlrow.Tournaments(s.r.WithContext(ctx), statuses, limit)
}

// DueTournaments lists the sweeper's tournaments (tournaments.Store).
func (s *Store) DueTournaments(ctx context.Context, now time.Time) (_ []string, err error) {
	defer s.read(&err)
	return sqlrow.DueTournaments(s.r.WithContext(ctx), now)
}

// Organising counts an organiser's live tournaments (tournaments.Store).
func (s *Store) Organising(ctx context.Context, organiser string) (_ int, err error) {
	defer s.read(&err)
	return sqlrow.Organising(s.r.WithContext(ctx), organiser)
}

// SealedCommitment says whether a commitment is sealed (tournaments.Store).
func (s *Store) SealedCommitment(ctx context.Context, commitment string) (_ bool, err error) {
	defer s.read(&err)
	return sqlrow.SealedCommitment(s.r.WithContext(ctx), commitment)
}

// RoundSeed reads a round's secret seed (tournaments.Store).
func (s *Store) RoundSeed(ctx context.Context, id string, round int) (_ []byte, err error) {
	defer s.read(&err)
	return sqlrow.RoundSeed(s.r.WithContext(ctx), id, round)
}
