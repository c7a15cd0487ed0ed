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

// The seal is the match's, whoever raises it: the referee and the reviews refuse a sealed
// match for every route and every caller alike, and neither may import the tournament service,
// which imports the referee. So MATCH_SEALED lives with the game, beside the Viewer that reads
// a sealed match; the codes of tournaments themselves are domain/app/tournaments'.

// CodeMatchSealed: a request about a sealed match by someone not seated in it, or its review or
// rematch (docs/tournaments.md, "Errors").
const CodeMatchSealed Code = "MATCH_SEALED"

// ErrMatchSealed: a sealed match is read and acted on only by its own seats until its round
// ends, and has no review or rematch until then. Its words are the same for every match and
// every caller, so that the refusal tells nothing of the match.
var ErrMatchSealed = NewError(CodeMatchSealed, "the match belongs to a duplicate round still being played: until the round's last match ends, only its own seats may read it or act on it, and it has no review or rematch")
