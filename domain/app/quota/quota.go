// Package quota holds RATE_LIMITED, the code of a limit reached (docs/operations.md, "Limits"):
// a client address or a player that has used up its share of something the server bounds.
// The HTTP layer counts most limits (api/ratelimit, the streams' caps, the routes' own
// limits); a service counts those only its store can count in one transaction: the challenges
// waiting for an answer (referee.ErrTooManyChallenges) and the tournaments one player
// organises (tournaments.ErrTooManyTournaments). Each such error lives with what it limits; the
// code they share is no one service's and not the game's, so it lives in this leaf, which
// imports only domain and which the HTTP layer and every service may import.
package quota

import "github.com/allfives/allfives/domain"

// CodeRateLimited: a client or a player over one of the server's limits; the answer's
// Retry-After says when to try again (docs/api-errors.md, "Errors").
const CodeRateLimited domain.Code = "RATE_LIMITED"
