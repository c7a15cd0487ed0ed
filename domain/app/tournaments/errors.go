package tournaments

import (
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/quota"
)

// The codes of tournaments (docs/tournaments.md, "Errors"). MATCH_SEALED is the match's, and
// lives in domain beside the Viewer that reads a sealed match.
const (
	// CodeTournamentNotFound: no tournament has that id.
	CodeTournamentNotFound domain.Code = "TOURNAMENT_NOT_FOUND"
	// CodeTournamentClosed: an entry, a withdrawal or a start of a tournament that is no
	// longer upcoming, or a cancel of one that is over.
	CodeTournamentClosed domain.Code = "TOURNAMENT_CLOSED"
	// CodeTournamentFull: an entry beyond the tournament's max_entries.
	CodeTournamentFull domain.Code = "TOURNAMENT_FULL"
	// CodeAlreadyEntered: a second entry of one player.
	CodeAlreadyEntered domain.Code = "ALREADY_ENTERED"
	// CodeNotOrganiser: a command only the tournament's organiser may give.
	CodeNotOrganiser domain.Code = "NOT_ORGANISER"
	// CodeTooFewEntries: a start with fewer entries than min_entries.
	CodeTooFewEntries domain.Code = "TOO_FEW_ENTRIES"
)

// The errors of tournaments, as the service answers them; the Store port's ErrNotFound and
// ErrConflict are the store's words to the service, never a client's.
var (
	// ErrTournamentNotFound: no tournament has that id.
	ErrTournamentNotFound = domain.NewError(CodeTournamentNotFound, "tournament not found")
	// ErrTournamentClosed: the tournament has started, finished or been cancelled.
	ErrTournamentClosed = domain.NewError(CodeTournamentClosed, "the tournament is no longer upcoming")
	// ErrTournamentFull: every entry of the tournament is taken.
	ErrTournamentFull = domain.NewError(CodeTournamentFull, "the tournament has its most entries")
	// ErrAlreadyEntered: one player holds one entry.
	ErrAlreadyEntered = domain.NewError(CodeAlreadyEntered, "that player has already entered")
	// ErrNotOrganiser: only the organiser starts, cancels or enters bots.
	ErrNotOrganiser = domain.NewError(CodeNotOrganiser, "only the tournament's organiser may do that")
	// ErrTooFewEntries: a tournament starts with at least min_entries entries.
	ErrTooFewEntries = domain.NewError(CodeTooFewEntries, "the tournament has fewer entries than it needs to start")
)

// ErrTooManyTournaments: a player creating a tournament beyond those it may have upcoming or
// running at once (docs/tournaments.md, "Limits").
var ErrTooManyTournaments = domain.NewError(quota.CodeRateLimited, "too many tournaments of yours are upcoming or running")
