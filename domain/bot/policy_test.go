package bot

import (
	"fmt"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

// TestOpenEndsAgreeWithSim checks the lookahead policy's scoring (openEnds) against the
// simulator's, which sim_test.go checks against the domain, on every play of real matches.
func TestOpenEndsAgreeWithSim(t *testing.T) {
	plays := 0
	for _, c := range bottest.Shapes() {
		walkSims(t, c, "ends/"+c.String(), func(g *sim) {
			l := g.ends()
			for m := g.playable(int(g.turn)); m != 0; m &= m - 1 {
				tile := nthTile(m, 0)
				for e := 0; e < 2; e++ {
					if g.lineLen > 0 && !fitsEnd(tile, g.end[e]) {
						continue
					}
					plays++
					if got, want := l.after(tile, e).total(), g.totalAfter(tile, e); got != want {
						t.Fatalf("%v on end %d of %+v: openEnds %d, sim %d", tileOf[tile], e, l, got, want)
					}
				}
			}
		})
	}
	if plays < 500 {
		t.Fatalf("only %d plays checked", plays)
	}
}

// TestSolveIsMinimax checks the alpha-beta endgame search against plain minimax on two-sided
// positions with the boneyard empty, from real matches.
func TestSolveIsMinimax(t *testing.T) {
	solved := 0
	for _, c := range []bottest.Shape{{Players: 2}, {Players: 4, Partnerships: true}} {
		walkSims(t, c, "solve/"+c.String(), func(g *sim) {
			if g.boneAt < g.boneEnd || bitsIn(g) > 9 {
				return
			}
			nodes := 1 << 30
			side := int(g.sideOf[g.turn])
			if got, want := g.solve(side, -1<<30, 1<<30, &nodes, make([]sim, solveDepth)), minimax(g, side); got != want {
				t.Fatalf("alpha-beta %d, minimax %d", got, want)
			}
			solved++
		})
	}
	if solved < 20 {
		t.Fatalf("only %d positions solved", solved)
	}
}

func bitsIn(g *sim) int {
	n := 0
	for s := 0; s < int(g.players); s++ {
		n += len(tilesOf(g.hands[s]))
	}
	return n
}

func minimax(g *sim, side int) int {
	if g.state != live {
		return outcome(g, side)
	}
	m := g.playable(int(g.turn))
	if m == 0 {
		c := *g
		c.pass()
		return minimax(&c, side)
	}
	maximize := int(g.sideOf[g.turn]) == side
	best := 0
	var buf [14]move
	for i, p := range g.orderedPlays(m, &buf) {
		c := *g
		c.play(p.tile, p.end)
		v := minimax(&c, side)
		if i == 0 || (maximize && v > best) || (!maximize && v < best) {
			best = v
		}
	}
	return best
}

// walkSims plays a few matches at table c with greedy players and hands visit the simulator
// of each position, dealt from the real deal.
func walkSims(t *testing.T, c bottest.Shape, name string, visit func(g *sim)) {
	for i := 0; i < 4; i++ {
		seed := bottest.Seed(fmt.Sprintf("%s/%d", name, i))
		m, events := bottest.Start(t, bottest.Spec(c, 0), seed)
		ls := &lockstep{t: t, m: m}
		ls.deal(events[len(events)-1].Data.(domain.HandStarted))
		for !m.Finished() && ls.g.state == live {
			visit(&ls.g)
			seat := m.Turn()
			mv := m.LegalMoves(seat)[0]
			if mv.Action == domain.ActionPlay && ls.lead == nil {
				tile, e := ls.g.greedyPick(ls.g.playable(seat))
				mv = domain.LegalMove{Action: domain.ActionPlay, Tile: tileOf[tile], End: domain.End(e)}
			}
			evs, err := m.Decide(seat, mv.Move(), time.Unix(0, 0))
			if err != nil {
				t.Fatal(err)
			}
			ls.follow(mv, evs)
		}
	}
}

// TestNetFollowsTheSim checks the policy's nets (net, one to three plies) against the same
// alternation played on the simulator itself, at two players on positions of real matches:
// each play laid with sim.play, its points from the sim's ends, the hands as the sim holds
// them.
func TestNetFollowsTheSim(t *testing.T) {
	checked := 0
	walkSims(t, bottest.Shape{Players: 2}, "net", func(g *sim) {
		if g.lineLen == 0 {
			return
		}
		mover := int(g.turn)
		for plies := 1; plies <= maxPlies; plies++ {
			got, ok := g.ends().net(g.hands[mover], g.hands[1-mover], plies, 0)
			want, wok := slowNet(*g, mover, plies)
			if got != want || ok != wok {
				t.Fatalf("%d plies at ends %v: net %d %v, on the sim %d %v", plies, g.end, got, ok, want, wok)
			}
			checked++
		}
	})
	if checked < 300 {
		t.Fatalf("only %d nets checked", checked)
	}
}

// slowNet is net played out on copies of the sim: the mover's best play's points, less the
// other seat's slowNet one ply less, or plus the other's pips rounded when the play goes out.
func slowNet(g sim, mover, plies int) (int, bool) {
	best, ok := -1<<30, false
	for m := g.hands[mover] & (pipTiles[g.end[0]] | pipTiles[g.end[1]]); m != 0; m &= m - 1 {
		tile := nthTile(m, 0)
		for e := 0; e < 2; e++ {
			if !fitsEnd(tile, g.end[e]) {
				continue
			}
			v := scoreOf(g.totalAfter(tile, e))
			c := g
			c.turn = uint8(mover)
			c.play(tile, e)
			switch {
			case plies == 1:
			case c.hands[mover] == 0:
				v += domain.Round5(maskPips(c.hands[1-mover]))
			default:
				back, _ := slowNet(c, 1-mover, plies-1)
				v -= back
			}
			best, ok = max(best, v), true
		}
	}
	if !ok {
		return 0, false
	}
	return best, true
}
