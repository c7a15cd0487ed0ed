package players

import "github.com/allfives/allfives/domain"

// The codes of players (docs/api-players.md, "Players"). ALREADY_SEATED is a seat's, and lives in
// domain beside the seats that refuse it.
const (
	// CodeNameTaken: a player already goes by that name, under the names' comparison.
	CodeNameTaken domain.Code = "NAME_TAKEN"
	// CodePlayerNotFound: no player has that id.
	CodePlayerNotFound domain.Code = "PLAYER_NOT_FOUND"
)

// The errors of players.
var (
	// ErrNameTaken: player names are unique under the comparisons of domain/names, so that
	// "Ada", "ada" and "ＡＤＡ" are one player, and so are "Bob" and "Вob" (docs/api-players.md, "Players").
	ErrNameTaken = domain.NewError(CodeNameTaken, "a player already goes by that name (names are compared ignoring case and width, and letters of other scripts that look alike)")
	// ErrPlayerNotFound: no player has that id.
	ErrPlayerNotFound = domain.NewError(CodePlayerNotFound, "player not found")
)
