package domain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"testing"
)

// propertyMatches is how many random matches each table plays: modest by default so CI stays
// quick; ALLFIVES_PROPERTY_MATCHES=2000 runs the full count.
func propertyMatches(t *testing.T) int {
	if s := os.Getenv("ALLFIVES_PROPERTY_MATCHES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("ALLFIVES_PROPERTY_MATCHES=%q: %v", s, err)
		}
		return n
	}
	if testing.Short() {
		return 3
	}
	return 12
}

var propertyTables = []struct {
	name         string
	players      int
	partnerships bool
}{
	{"2 players", 2, false}, {"3 players", 3, false}, {"4 alone", 4, false}, {"4 partnerships", 4, true},
}

func TestRandomMatchesKeepInvariants(t *testing.T) {
	n := propertyMatches(t)
	for _, tb := range propertyTables {
		t.Run(tb.name, func(t *testing.T) {
			t.Parallel()
			for i := range n {
				rng := rand.New(rand.NewPCG(uint64(i), uint64(tb.players)))
				playRandomMatch(t, rng, tb.players, tb.partnerships, true)
				if t.Failed() {
					t.Fatalf("match %d failed", i)
				}
			}
		})
	}
}

func humans(n int) []PlayerInfo {
	ps := make([]PlayerInfo, n)
	for i := range ps {
		ps[i] = PlayerInfo{Name: fmt.Sprintf("p%d", i), Kind: Human}
	}
	return ps
}

// playRandomMatch plays one match of uniformly random legal actions and, when check is set,
// verifies the invariants after every event. It returns the whole log.
func playRandomMatch(t testing.TB, rng *rand.Rand, players int, partnerships bool, check bool) []Event {
	var seed Seed
	for i := range seed {
		seed[i] = byte(rng.UintN(256))
	}
	log, err := Start(MatchSpec{Players: humans(players), Partnerships: partnerships}, seed, testAt)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Resume("m", seed, log)
	if err != nil {
		t.Fatal(err)
	}
	for !m.Finished() {
		seat := m.Turn()
		legal := m.LegalMoves(seat)
		if len(legal) == 0 {
			t.Fatalf("seat %d to move has no legal move", seat)
		}
		mv := legal[rng.IntN(len(legal))].Move()
		if !check {
			// The fast path a simulation takes: decide and apply in one step.
			evs, err := m.Act(seat, mv, testAt)
			if err != nil {
				t.Fatalf("legal move refused: %v", err)
			}
			log = append(log, evs...)
			continue
		}
		evs, err := m.Decide(seat, mv, testAt)
		if err != nil {
			t.Fatalf("legal move refused: %v", err)
		}
		log = applyChecked(t, m, seed, log, evs)
	}
	return log
}

// applyChecked applies a command's events one by one, checking the invariants after each and
// after the whole command, and returns the log with them.
func applyChecked(t testing.TB, m *Match, seed Seed, log, evs []Event) []Event {
	t.Helper()
	for _, e := range evs {
		before := m.Clone()
		if err := m.Apply(e); err != nil {
			t.Fatal(err)
		}
		log = append(log, e)
		checkEvent(t, before, m, e, log)
	}
	checkCommand(t, m, seed, log)
	return log
}

// checkEvent verifies what must hold after each event.
func checkEvent(t testing.TB, before, m *Match, e Event, log []Event) {
	t.Helper()
	if m.hand.hands != nil {
		checkTilesAccounted(t, m)
	}
	for side := range m.scores {
		if d := m.scores[side] - before.scores[side]; d < 0 || d%5 != 0 {
			t.Fatalf("seq %d: side %d's score moved by %d", e.Seq, side, d)
		}
	}
	n := m.table.players
	switch d := e.Data.(type) {
	case TilePlayed:
		if !m.finished && m.hand.turn != (d.Seat+1)%n && !m.hand.over {
			t.Fatalf("seq %d: after seat %d played, turn is %d", e.Seq, d.Seat, m.hand.turn)
		}
	case TurnPassed:
		if m.hand.turn != (d.Seat+1)%n {
			t.Fatalf("seq %d: after seat %d passed, turn is %d", e.Seq, d.Seat, m.hand.turn)
		}
	case TileDrawn:
		if m.hand.turn != d.Seat && !m.hand.over {
			t.Fatalf("seq %d: after seat %d drew, turn is %d", e.Seq, d.Seat, m.hand.turn)
		}
	case HandStarted:
		if m.hand.turn != d.Leader {
			t.Fatalf("seq %d: hand led by %d but turn is %d", e.Seq, d.Leader, m.hand.turn)
		}
	}
	if !m.finished && m.hand.hands != nil && !m.hand.over {
		checkViews(t, m, log)
	}
}

func checkTilesAccounted(t testing.TB, m *Match) {
	t.Helper()
	seen := make(map[Tile]int, SetSize)
	for _, h := range m.hand.hands {
		for _, tl := range h {
			seen[tl]++
		}
	}
	for _, tl := range m.hand.boneyard {
		seen[tl]++
	}
	for _, l := range m.hand.line.Tiles() {
		tl, _ := NewTile(l.Left, l.Right)
		seen[tl]++
	}
	if len(seen) != SetSize {
		t.Fatalf("version %d: %d distinct tiles in play, want 28", m.version, len(seen))
	}
	for tl, c := range seen {
		if c != 1 {
			t.Fatalf("version %d: %s appears %d times", m.version, tl, c)
		}
	}
}

// checkViews verifies that no view shows a tile the viewer may not see: for each seat, every
// other hand and the boneyard; for a spectator, every hand.
func checkViews(t testing.TB, m *Match, log []Event) {
	t.Helper()
	var hands HandLog
	hands.Record(log...)
	n := m.table.players
	for viewer := -1; viewer < n; viewer++ {
		var hidden []Tile
		for s := range n {
			if s != viewer {
				hidden = append(hidden, m.hand.hands[s]...)
			}
		}
		hidden = append(hidden, m.hand.boneyard...)
		v := Spectator()
		var shown []any
		if viewer >= 0 {
			v = SeatViewer(viewer)
			sv := m.SeatView(viewer, hands)
			shown = append(shown, sv.Hand, playsOf(sv.LegalMoves), sv.History)
		}
		view := m.View(v)
		plays := playsOf(view.LegalMoves)
		view.LegalMoves = nil
		shown = append(shown, view, plays, v.RedactAll(hands.events, false))
		b, err := json.Marshal(shown)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range hidden {
			for _, name := range []string{tl.String(), Laid{Left: tl.High(), Right: tl.Low()}.String()} {
				if bytes.Contains(b, []byte(`"`+name+`"`)) {
					t.Fatalf("version %d: viewer %d sees hidden %s in %s", m.version, viewer, tl, b)
				}
			}
		}
	}
}

// checkCommand verifies what must hold after each command: the match has ended exactly when a
// side reached the target, and a fresh fold of the log equals the live state.
func checkCommand(t testing.TB, m *Match, seed Seed, log []Event) {
	t.Helper()
	reached := false
	for _, s := range m.scores {
		reached = reached || s >= m.info.Target
	}
	if reached != m.finished {
		t.Fatalf("version %d: scores %v, target %d, finished %v", m.version, m.scores, m.info.Target, m.finished)
	}
	fresh, err := Resume("m", seed, log)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fresh, m) {
		t.Fatalf("version %d: a fresh fold differs from the live state", m.version)
	}
}

// playsOf names the tiles of the plays among moves: a draw or pass carries no tile, though its
// zero Tile field would print as 0-0.
func playsOf(moves []LegalMove) []string {
	var out []string
	for _, l := range moves {
		if l.Action == ActionPlay {
			out = append(out, l.Tile.String())
		}
	}
	return out
}
