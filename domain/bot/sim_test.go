package bot

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

// TestSimAgreesWithDomain plays matches on domain.Match and on the rollout simulator side by
// side, from the full deal, and checks that they list the same legal moves with the same
// points, and agree on every total, hand end, bonus and match end.
func TestSimAgreesWithDomain(t *testing.T) {
	matches := bottest.Size(25, 500)
	for _, c := range bottest.Shapes() {
		t.Run(c.String(), func(t *testing.T) {
			for i := 0; i < matches; i++ {
				target := []int{0, 50, 100}[i%3] // small targets end matches mid-hand often
				crossCheck(t, c, target, bottest.Seed(fmt.Sprintf("sim/%s/%d", c, i)), uint64(i))
			}
		})
	}
}

// lockstep is a domain match and the simulator following it.
type lockstep struct {
	t    *testing.T
	m    *domain.Match
	g    sim
	lead *domain.Tile // the double that must be led, when the hand opens on the highest double
}

func crossCheck(t *testing.T, c bottest.Shape, target int, seed domain.Seed, pick uint64) {
	t.Helper()
	at := time.Unix(0, 0)
	m, events := bottest.Start(t, bottest.Spec(c, target), seed)
	ls := &lockstep{t: t, m: m}
	ls.deal(events[len(events)-1].Data.(domain.HandStarted))
	r := rng{s: pick}
	for !m.Finished() {
		seat := m.Turn()
		if int(ls.g.turn) != seat {
			t.Fatalf("turn: sim %d, domain %d", ls.g.turn, seat)
		}
		legal := m.LegalMoves(seat)
		ls.compareLegal(seat, legal)
		mv := legal[r.intn(len(legal))]
		if r.intn(2) == 0 && mv.Action == domain.ActionPlay && ls.lead == nil {
			t, e := ls.g.greedyPick(ls.g.playable(seat))
			mv = domain.LegalMove{Action: domain.ActionPlay, Tile: tileOf[t], End: domain.End(e)}
		}
		evs, err := m.Decide(seat, mv.Move(), at)
		if err != nil {
			t.Fatalf("domain refused %+v: %v", mv, err)
		}
		ls.follow(mv, evs)
	}
}

func (ls *lockstep) deal(d domain.HandStarted) {
	ls.g = newSim(ls.m.Table(), ls.m.Scores(), ls.m.Target())
	for s, h := range d.Hands {
		ls.g.hands[s] = maskOf(h)
	}
	for i, b := range d.Boneyard {
		ls.g.bone[i] = uint8(b.Index())
	}
	ls.g.boneEnd = int8(len(d.Boneyard))
	ls.g.turn = uint8(d.Leader)
	ls.lead = nil
	if d.Lead == domain.LeadHighestDouble {
		best := domain.Tile{}
		found := false
		for _, t := range d.Hands[d.Leader] {
			if t.IsDouble() && (!found || t.Low() > best.Low()) {
				best, found = t, true
			}
		}
		ls.lead = &best
	}
}

// simLegal lists the simulator's legal moves the way the domain does.
func (ls *lockstep) simLegal(seat int) []domain.LegalMove {
	g := &ls.g
	var out []domain.LegalMove
	for m := g.playable(seat); m != 0; m &= m - 1 {
		t := nthTile(m, 0)
		if g.lineLen == 0 && ls.lead != nil && tileOf[t] != *ls.lead {
			continue
		}
		for e := 0; e < 2; e++ {
			if g.lineLen == 0 && e == 1 || g.lineLen > 0 && !fitsEnd(t, g.end[e]) {
				continue
			}
			out = append(out, domain.LegalMove{Action: domain.ActionPlay, Tile: tileOf[t], End: domain.End(e), Points: scoreOf(g.totalAfter(t, e))})
		}
	}
	switch {
	case len(out) > 0:
	case g.boneAt < g.boneEnd:
		out = append(out, domain.LegalMove{Action: domain.ActionDraw})
	default:
		out = append(out, domain.LegalMove{Action: domain.ActionPass})
	}
	return out
}

func (ls *lockstep) compareLegal(seat int, legal []domain.LegalMove) {
	key := func(l domain.LegalMove) string { return fmt.Sprintf("%s %s %s %d", l.Action, l.Tile, l.End, l.Points) }
	var a, b []string
	for _, l := range legal {
		a = append(a, key(l))
	}
	for _, l := range ls.simLegal(seat) {
		b = append(b, key(l))
	}
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		ls.t.Fatalf("seat %d legal moves: domain %v, sim %v", seat, a, b)
	}
}

// follow makes the same move in the simulator and checks it against the domain's events.
func (ls *lockstep) follow(mv domain.LegalMove, evs []domain.Event) {
	t, g := ls.t, &ls.g
	switch mv.Action {
	case domain.ActionPlay:
		g.play(mv.Tile.Index(), int(mv.End))
	case domain.ActionDraw:
		g.draw()
	case domain.ActionPass:
		g.pass()
	}
	ls.lead = nil
	dealt := false
	for _, e := range evs {
		if err := ls.m.Apply(e); err != nil {
			t.Fatal(err)
		}
		switch d := e.Data.(type) {
		case domain.HandEnded:
			want := map[domain.Outcome]simState{domain.OutcomeDomino: wentOut, domain.OutcomeBlocked: blockedOut}[d.Outcome]
			if slices.Max(d.Scores) >= ls.m.Target() {
				want = matchOver // the bonus reached the target: match.ended follows
			}
			if g.state != want || !sameSide(g.winner, d.WinnerSide) || !ls.scoresAre(d.Scores) {
				t.Fatalf("hand end: sim state %d winner %d scores %v, domain %+v", g.state, g.winner, g.score, d)
			}
		case domain.MatchEnded:
			if g.state != matchOver || int(g.winner) != d.WinnerSide || !ls.scoresAre(d.Scores) {
				t.Fatalf("match end: sim state %d winner %d scores %v, domain %+v", g.state, g.winner, g.score, d)
			}
			return
		case domain.HandStarted:
			ls.deal(d)
			dealt = true
		}
	}
	if !dealt && (g.state != live || !ls.scoresAre(ls.m.Scores())) {
		t.Fatalf("after %+v: sim state %d scores %v, domain scores %v", mv, g.state, g.score, ls.m.Scores())
	}
}

func sameSide(w int8, d *int) bool {
	if d == nil {
		return w == -1
	}
	return int(w) == *d
}

func (ls *lockstep) scoresAre(want []int) bool {
	for i, s := range want {
		if int(ls.g.score[i]) != s {
			return false
		}
	}
	return true
}
