package bot

import (
	"context"
	"fmt"
	"math/bits"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

// This file is Extended PIMC (Arjonilla, Saffidine and Cazenave 2024) as a variant of the
// expert, screened in screen_test.go. Plain PIMC lets the seat's own later decisions differ
// from one sampled deal to the next, as if it knew each deal (strategy fusion). Here the
// seat's next decision is taken once for all the deals it cannot tell apart: for each
// candidate, in each sampled deal, the opponent answers by the playout policy until the seat
// is to move again; the deals in which the seat then sees the same thing (its hand and the
// opponent's public actions since) form one information set, every move the seat has there
// is played out in each of its deals, and the set is worth the best move's weighted mean over
// them, not each deal's own best. Below that decision the playouts are the expert's.

// extended is the expert with its playout study, while more than deepMax tiles are hidden at
// two players, replaced by the extended study; elsewhere it is the expert. With presume set
// it is also presumed-value PIMC (Wisser 2015) at the opponent's first answer: the opponent
// chooses it without seeing the seat's hand (presumedStep), as it must in a real match.
type extended struct {
	x   *Expert
	ext extOpts
}

// extOpts are the extended study's switches.
type extOpts struct {
	presume  int // hands of the seat's the opponent weighs its first answer against (0: it sees the real one)
	minDeals int // an information set of fewer deals is worth its playouts' own choices, not its best move
}

// Choose is the expert's decision with the extended study where it applies.
func (p extended) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	k := read(v)
	if v.Table.Players() != 2 || v.Boneyard == 0 || bits.OnesCount32(k.unseen) <= p.x.opts.deepMax || len(v.LegalMoves) < 2 {
		return p.x.Choose(ctx, v)
	}
	if err := ctx.Err(); err != nil {
		return domain.Move{}, err
	}
	s, order := p.x.prepare(v, k)
	r := viewRNG(p.x.seed, v)
	values := s.extend(&r, v.Seat, p.ext)
	return v.LegalMoves[order[best(values)]].Move(), nil
}

// infoSet is what the seat learns of one information set at its next decision: the weight of
// its deals, their count, per move it has there the weighted sum of the playouts' values,
// and the weighted sum of the values of the move the playout policy takes in each deal.
type infoSet struct {
	weight float64
	deals  int
	sums   []float64
	policy float64
}

// extend values each candidate by the extended study, spending s.budget playouts in all: a
// candidate whose next decision offers n moves costs n playouts in a deal. With o.presume > 0
// the opponent's first action is presumedStep's. A set of fewer than o.minDeals deals is
// worth the mean of the policy's own moves in them: the best of a few deals' means is the
// best in hindsight, which flatters candidates that leave many moves open.
func (s *study) extend(r *rng, me int, o extOpts) []float64 {
	sets := make([]map[uint64]*infoSet, len(s.cands))
	for i := range sets {
		sets[i] = map[uint64]*infoSet{}
	}
	world, g, h := new(sim), new(sim), new(sim)
	var opts []move
	for done := 0; done < s.budget; {
		*world = s.base
		w := s.deal(r, world)
		for i, c := range s.cands {
			if done >= s.budget {
				break
			}
			*g = *world
			g.apply(c)
			key := uint64(14695981039346656037)
			if o.presume > 0 && g.state == live && int(g.turn) != me {
				key = (key ^ presumedStep(g, r, me, o.presume)) * 1099511628211
			}
			for g.state == live && int(g.turn) != me {
				key = (key ^ stepCode(g)) * 1099511628211
			}
			opts = opts[:0]
			if g.state == live {
				opts = ownMoves(g, opts)
			}
			key = (key ^ uint64(g.hands[me])) * 1099511628211
			if len(opts) < 2 { // no decision left to share: one playout
				done++
				s.finish(g)
				v := s.score(g)
				add(sets[i], key, 1, w).count(0, w, v, true)
				continue
			}
			pick := policyMove(g, opts)
			set := add(sets[i], key, len(opts), w)
			for j, m := range opts {
				done++
				*h = *g
				h.apply(m)
				s.finish(h)
				set.count(j, w, s.score(h), j == pick)
			}
		}
	}
	values := make([]float64, len(s.cands))
	for i, byKey := range sets {
		total := 0.0
		for _, set := range byKey {
			total += set.weight
			if set.deals < o.minDeals {
				values[i] += set.policy
			} else {
				values[i] += set.sums[best(set.sums)]
			}
		}
		if total > 0 {
			values[i] /= total
		}
	}
	return values
}

// add counts a deal of weight w in the set named key, of n moves, and returns the set.
func add(sets map[uint64]*infoSet, key uint64, n int, w float64) *infoSet {
	set := sets[key]
	if set == nil {
		set = &infoSet{sums: make([]float64, n)}
		sets[key] = set
	}
	set.weight += w
	set.deals++
	return set
}

// count adds a playout of move j worth v in a deal of weight w; policy says the playout
// policy takes that move there.
func (set *infoSet) count(j int, w, v float64, policy bool) {
	set.sums[j] += w * v
	if policy {
		set.policy += w * v
	}
}

// policyMove is the index among opts of the move the playout policy takes in g (a play on
// either of two alike ends is the one opts lists).
func policyMove(g *sim, opts []move) int {
	m := g.playable(int(g.turn))
	if m == 0 {
		return 0
	}
	var t, e int
	if g.look {
		t, e = g.lookaheadPick(m)
	} else {
		t, e = g.greedyPick(m)
	}
	for j, o := range opts {
		if o.tile == t && (o.end == e || g.end[0] == g.end[1] && g.dbl[0] == g.dbl[1]) {
			return j
		}
	}
	return 0
}

// stepCode makes the seat to move act by the playout policy, as step does, and returns what
// the other seat sees of it: the tile and end of a play, or a draw, or a pass.
func stepCode(g *sim) uint64 {
	if m := g.playable(int(g.turn)); m != 0 {
		var t, e int
		if g.look {
			t, e = g.lookaheadPick(m)
		} else {
			t, e = g.greedyPick(m)
		}
		g.play(t, e)
		return uint64(1 + 2*t + e)
	}
	if g.boneAt < g.boneEnd {
		g.draw()
		return 100
	}
	g.pass()
	return 101
}

// ownMoves appends to out the moves of the seat to move in g: each play of a tile that fits
// an end (one end when both ends are alike), else a draw, else a pass.
func ownMoves(g *sim, out []move) []move {
	seat := int(g.turn)
	m := g.playable(seat)
	if m == 0 {
		if g.boneAt < g.boneEnd {
			return append(out, move{action: domain.ActionDraw})
		}
		return append(out, move{action: domain.ActionPass})
	}
	alike := g.end[0] == g.end[1] && g.dbl[0] == g.dbl[1]
	for ; m != 0; m &= m - 1 {
		t := bits.TrailingZeros32(m)
		for e := 0; e < 2; e++ {
			if g.lineLen == 0 && e == 1 || g.lineLen > 0 && (!fitsEnd(t, g.end[e]) || e == 1 && alike) {
				continue
			}
			out = append(out, move{action: domain.ActionPlay, tile: t, end: e})
		}
	}
	return out
}

// TestOwnMovesAreTheLegalMoves checks the extended study's list of the seat's moves against
// the referee's on positions of real matches: the same plays, draw or pass, but a tile that
// fits two alike ends once; and that policyMove names the tile the policy plays.
func TestOwnMovesAreTheLegalMoves(t *testing.T) {
	players := []domain.Strategy{NewGreedy(), NewRandom(3)}
	checked := 0
	for i := range 4 {
		bottest.Play(t, bottest.Spec(bottest.Shape{Players: 2}, 0), bottest.Seed(fmt.Sprint("own-moves/", i)), players, func(m *domain.Match, hands domain.HandLog) bool {
			v := m.SeatView(m.Turn(), hands)
			if v.Line.Len() == 0 {
				return true
			}
			g := seatSim(v, maskOf(v.Hand), v.Target)
			g.boneEnd = int8(v.Boneyard)
			want := map[move]bool{}
			for _, lm := range v.LegalMoves {
				want[move{action: lm.Action, tile: lm.Tile.Index(), end: int(lm.End)}] = true
			}
			got := ownMoves(&g, nil)
			alike := g.end[0] == g.end[1] && g.dbl[0] == g.dbl[1]
			for _, mv := range got {
				if !want[mv] {
					t.Fatalf("%v: ownMoves lists %+v, not legal (%v)", v.Line, mv, v.LegalMoves)
				}
				if alike {
					want[move{action: mv.action, tile: mv.tile, end: 1 - mv.end}] = false
				}
				delete(want, mv)
			}
			for mv, missing := range want {
				if missing {
					t.Fatalf("%v: ownMoves leaves out %+v", v.Line, mv)
				}
			}
			if m := g.playable(v.Seat); m != 0 {
				g.look, g.plies = true, 2
				tile, _ := g.lookaheadPick(m)
				if pick := got[policyMove(&g, got)]; pick.tile != tile {
					t.Fatalf("%v: policyMove names %+v, the policy plays tile %d", v.Line, pick, tile)
				}
			}
			checked++
			return true
		})
	}
	if checked < 100 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// TestExtendedPlays: the extended expert, with and without the presumed answer, plays whole
// matches against greedy play with legal moves (the harness refuses any other), and wins most
// of them.
func TestExtendedPlays(t *testing.T) {
	for _, o := range []extOpts{{}, {presume: 4, minDeals: 3}} {
		r := duel(t, fmt.Sprintf("extended-plays/%+v", o), extended{x: NewExpert(1, 200), ext: o}, NewGreedy(), 2)
		if r.rate() < 0.5 {
			t.Fatalf("extended %+v against greedy: %s, want most", o, r)
		}
	}
}
