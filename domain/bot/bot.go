package bot

import (
	"context"
	"errors"

	"github.com/allfives/allfives/domain"
)

// The strategy names a seat may ask for (docs/bots.md, "The strategies").
const (
	NameRandom = "random"
	NameGreedy = "greedy"
	NameExpert = "expert"
	NamePIMC   = "pimc"
)

// errNoMoves is returned when a strategy is asked to move while its seat has no legal move:
// the service never does that, so it is a caller's bug, not a rule of the game.
var errNoMoves = errors.New("bot: the view has no legal moves; it is not this seat's turn")

// Strategies returns the strategies by name, each seeded from seed, for
// the referee's ServiceConfig.Bots: the four of Names and the levels of LevelNames.
func Strategies(seed uint64) map[string]domain.Strategy {
	s := map[string]domain.Strategy{
		NameRandom: NewRandom(seed),
		NameGreedy: NewGreedy(),
		NameExpert: NewExpert(seed, DefaultRollouts),
		NamePIMC:   NewPIMC(seed, DefaultPlayouts),
	}
	for n := 1; n <= Levels; n++ {
		s[LevelName(n)] = NewLevel(seed, n, DefaultRollouts)
	}
	return s
}

// Names lists the four original strategy names in order of strength.
func Names() []string { return []string{NameRandom, NameGreedy, NamePIMC, NameExpert} }

// AllNames lists every strategy a seat may name, each also a rated player (bot-<name>): the
// four of Names, then the levels of LevelNames, weakest first. It is the one list of the
// strategies: the rated bot players and simulate --rated follow it in this order, and
// WeakestFirst orders it for the API's enum and the web form.
func AllNames() []string { return append(Names(), LevelNames()...) }

// onlyMove returns the move when the view leaves exactly one, so random and greedy answer a
// forced draw, pass or lead at once. The Monte Carlo players do not use it: they spend their
// whole budget on a forced move too, so their timing does not give it away, and they are
// domain.Paced, since a playout's cost still depends on the position. random and greedy are
// not: they decide in microseconds whatever the view.
func onlyMove(v domain.SeatView) (domain.Move, bool, error) {
	switch len(v.LegalMoves) {
	case 0:
		return domain.Move{}, false, errNoMoves
	case 1:
		return v.LegalMoves[0].Move(), true, nil
	}
	return domain.Move{}, false, nil
}

// Random plays a uniformly random legal action: each listed play (a tile on an end), draw or
// pass is equally likely. It is the baseline every other strategy must beat.
type Random struct {
	seed uint64
}

// NewRandom returns a random player. Its choices derive from seed and the view, so the same
// view always gets the same move and matches can be replayed exactly.
func NewRandom(seed uint64) *Random { return &Random{seed: seed} }

// Choose picks one of v.LegalMoves at random.
func (p *Random) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	if err := ctx.Err(); err != nil {
		return domain.Move{}, err
	}
	if mv, ok, err := onlyMove(v); ok || err != nil {
		return mv, err
	}
	r := viewRNG(p.seed, v)
	return v.LegalMoves[r.intn(len(v.LegalMoves))].Move(), nil
}
