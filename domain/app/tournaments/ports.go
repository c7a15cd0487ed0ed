package tournaments

import (
	"context"
	"errors"
	"time"

	"github.com/allfives/allfives/domain/tournament"
)

// Store is the port for tournaments' logs (migrations/*/00014_tournaments.sql). The SQLite
// and PostgreSQL stores implement it, and storetest.RunTournaments pins what they must do.
type Store interface {
	// CreateTournament stores a new tournament: its row and its first links (seq from 1).
	CreateTournament(ctx context.Context, row Row, links []tournament.Link) error
	// AppendTournament adds a.Links after a.Expected in one transaction with the row and the
	// seal changes; a log not at a.Expected, or whose head hash is not the first link's
	// PrevHash, is ErrConflict, and nothing is written.
	AppendTournament(ctx context.Context, a Append) error
	// Tournament returns the row and the whole log of id, or ErrNotFound.
	Tournament(ctx context.Context, id string) (Row, []tournament.Link, error)
	// Tournaments lists rows of the statuses given (all when none), newest first, at most limit.
	Tournaments(ctx context.Context, statuses []tournament.Status, limit int) ([]Row, error)
	// DueTournaments lists the ids of tournaments running, or upcoming with a start time at or
	// before now: the sweeper's work.
	DueTournaments(ctx context.Context, now time.Time) ([]string, error)
	// Organising counts the tournaments organiser created that are upcoming or running.
	Organising(ctx context.Context, organiser string) (int, error)
	// SealedCommitment says whether commitment is a duplicate round's not yet revealed.
	SealedCommitment(ctx context.Context, commitment string) (bool, error)
	// RoundSeed returns the secret seed of a tournament's round, or ErrNotFound.
	RoundSeed(ctx context.Context, id string, round int) ([]byte, error)
}

// Row is what the store keeps beside a tournament's log: what lists and sweeps read.
type Row struct {
	ID        string
	Name      string
	Status    tournament.Status
	Organiser string
	CreatedAt time.Time
	UpdatedAt time.Time
	StartsAt  *time.Time
	Version   int
	HeadHash  string
}

// Seal is a duplicate round's secret seed and its commitment, kept until the round ends.
type Seal struct {
	Commitment string
	Round      int
	Seed       []byte
}

// Append is one atomic append to a tournament's log: Seal stores a round's secret with the
// round.started that commits to it; Reveal marks the commitment revealed with the event that
// reveals its seed (round.ended, or tournament.cancelled), at the time of the append's last
// link: the matches of the round are rated at that time (docs/ratings.md, "The projection").
type Append struct {
	ID       string
	Expected int
	Links    []tournament.Link
	Row      Row
	Seal     *Seal
	Reveal   string
}

// Store errors.
var (
	// ErrConflict: the log moved on since the version an append expected.
	ErrConflict = errors.New("the tournament moved on")
	// ErrNotFound: no such tournament, or no seed for that round.
	ErrNotFound = errors.New("tournament not found")
)
