package referee

import (
	"errors"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/quota"
)

// The referee's limits (docs/operations.md, "Limits"): the bot pool's queue, and the
// challenges waiting for an answer, from one player and to one player.

// ErrBotsBusy refuses a match of bots only while the bot pool holds ServiceConfig.BotQueue of
// them, queued or being played: each costs the pool's workers CPU, and a queue without bound
// would let one client's matches wait before everyone's.
var ErrBotsBusy = errors.New("the server is playing as many matches of bots as it may; try again shortly")

// ErrTooManyChallenges: a challenge beyond the challenges one player may have waiting for an
// answer, sent or received (MatchRecord.ChallengeCap); the store's refusal says whose.
var ErrTooManyChallenges = domain.NewError(quota.CodeRateLimited, "too many challenges are waiting for an answer")

// BotsRetryAfter is the Retry-After, in seconds, of ErrBotsBusy: about the time the pool takes
// to finish a match of bots.
const BotsRetryAfter = 5

// DefaultBotQueue is serve's bound on the bot pool's matches unless configured.
const DefaultBotQueue = 64

// DefaultMaxChallenges is serve's bound on the challenges waiting for an answer from one
// player, and to one player, unless configured: a real player has a handful; 1,100 challenges
// to one player pushed every real one out of its stream's snapshot.
const DefaultMaxChallenges = 20

// reserve takes a place in the pool for a match of bots about to be created, or says there is
// none; the place is the match's once submitted, or given back with unreserve.
func (p *botPool) reserve() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.limit > 0 && len(p.pending)+p.reserved >= p.limit {
		return false
	}
	p.reserved++
	return true
}

// unreserve gives back a place reserve took for a match that was not created.
func (p *botPool) unreserve() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reserved--
}

// submitReserved queues match id in the place reserve took for it.
func (p *botPool) submitReserved(id string) {
	p.mu.Lock()
	p.reserved--
	p.mu.Unlock()
	p.submit(id)
}
