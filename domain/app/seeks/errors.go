package seeks

import "github.com/allfives/allfives/domain"

// The codes of Play now (docs/matchmaking.md).
const (
	// CodeAlreadySeeking: a second searching seek of one player in one format.
	CodeAlreadySeeking domain.Code = "ALREADY_SEEKING"
	// CodeSeekNotFound: no seek of the caller's has that id.
	CodeSeekNotFound domain.Code = "SEEK_NOT_FOUND"
)

// The errors of Play now (docs/matchmaking.md).
var (
	// ErrAlreadySeeking: a player searches at most once per format, so that one player can
	// neither sit twice at one table nor crowd the pool.
	ErrAlreadySeeking = domain.NewError(CodeAlreadySeeking, "the player already has a seek searching in this format")
	// ErrSeekNotFound: a seek is read only by its player; another's answers as none.
	ErrSeekNotFound = domain.NewError(CodeSeekNotFound, "seek not found")
)
