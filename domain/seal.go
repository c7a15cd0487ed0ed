package domain

// A match of a running duplicate round is sealed (docs/tournaments.md, "Sealed matches"):
// every table of the round holds the same cards, and the tables finish at different times, so
// what a finished match shows (every hand, the boneyard, the seed) would tell a table still
// playing its own opponents' tiles. Until the round's last match has ended, a seat of a sealed
// match reads it as if it were live, whether it ended or not (its own tiles only, no seed in
// match.ended), and a spectator sees no hand at all.

// Sealed is v reading a sealed match: as a seat of a live match, or a spectator who sees no
// hand, even once the match has ended. It undoes Opened.
func (v Viewer) Sealed() Viewer {
	v.sealed, v.open = true, false
	return v
}

// IsSealed says whether v reads a sealed match.
func (v Viewer) IsSealed() bool { return v.sealed }

// sealedSpectator says whether v is a spectator of a sealed match, who sees no hand: the line
// of one table tells the others the tiles their seats hold.
func (v Viewer) sealedSpectator() bool { return v.sealed && !v.isSeat }

// The codes and errors of tournaments (docs/tournaments.md, "Errors").
const (
	// CodeMatchSealed: a request about a sealed match by someone not seated in it, or its
	// review or rematch.
	CodeMatchSealed Code = "MATCH_SEALED"
	// CodeTournamentNotFound: no tournament has that id.
	CodeTournamentNotFound Code = "TOURNAMENT_NOT_FOUND"
	// CodeTournamentClosed: an entry, a withdrawal or a start of a tournament that is no
	// longer upcoming, or a cancel of one that is over.
	CodeTournamentClosed Code = "TOURNAMENT_CLOSED"
	// CodeTournamentFull: an entry beyond the tournament's max_entries.
	CodeTournamentFull Code = "TOURNAMENT_FULL"
	// CodeAlreadyEntered: a second entry of one player.
	CodeAlreadyEntered Code = "ALREADY_ENTERED"
	// CodeNotOrganiser: a command only the tournament's organiser may give.
	CodeNotOrganiser Code = "NOT_ORGANISER"
	// CodeTooFewEntries: a start with fewer entries than min_entries.
	CodeTooFewEntries Code = "TOO_FEW_ENTRIES"
)

// The errors of tournaments.
var (
	// ErrMatchSealed: a sealed match is read and acted on only by its own seats until its
	// round ends, and has no review or rematch until then. Its words are the same for every
	// match and every caller, so that the refusal tells nothing of the match.
	ErrMatchSealed = NewError(CodeMatchSealed, "the match belongs to a duplicate round still being played: until the round's last match ends, only its own seats may read it or act on it, and it has no review or rematch")
	// ErrTournamentNotFound: no tournament has that id.
	ErrTournamentNotFound = NewError(CodeTournamentNotFound, "tournament not found")
	// ErrTournamentClosed: the tournament has started, finished or been cancelled.
	ErrTournamentClosed = NewError(CodeTournamentClosed, "the tournament is no longer upcoming")
	// ErrTournamentFull: every entry of the tournament is taken.
	ErrTournamentFull = NewError(CodeTournamentFull, "the tournament has its most entries")
	// ErrAlreadyEntered: one player holds one entry.
	ErrAlreadyEntered = NewError(CodeAlreadyEntered, "that player has already entered")
	// ErrNotOrganiser: only the organiser starts, cancels or enters bots.
	ErrNotOrganiser = NewError(CodeNotOrganiser, "only the tournament's organiser may do that")
	// ErrTooFewEntries: a tournament starts with at least min_entries entries.
	ErrTooFewEntries = NewError(CodeTooFewEntries, "the tournament has fewer entries than it needs to start")
)

// ErrTooManyTournaments: a player creating a tournament beyond those it may have upcoming or
// running at once (docs/tournaments.md, "Limits").
var ErrTooManyTournaments = NewError(CodeRateLimited, "too many tournaments of yours are upcoming or running")
