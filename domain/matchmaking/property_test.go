package matchmaking

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

var epoch = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// randomPool draws seeks over a few pools of every format, some players seeking in several
// pools, with ratings and waits spread wide enough that some pair, some wait, some get bots.
func randomPool(rng *rand.Rand, n int) []Seek {
	formats := []Format{Format2p, Format3p, Format4p, Format2v2}
	out := make([]Seek, n)
	for i := range out {
		f := formats[rng.IntN(len(formats))]
		rated := rng.IntN(2) == 0
		out[i] = Seek{
			ID:     fmt.Sprintf("s%04d", i),
			Player: fmt.Sprintf("p%03d", rng.IntN(n)), // players repeat across pools
			Pool:   fmt.Sprintf("%s|%v", f, rated),
			Format: f,
			Rating: rng.Float64()*45 - 5,
			Since:  epoch.Add(-time.Duration(rng.IntN(30_000)) * time.Millisecond),
		}
	}
	return out
}

func someBots(rng *rand.Rand) func(Format) []Bot {
	bots := map[Format][]Bot{}
	for _, f := range []Format{Format2p, Format3p, Format4p, Format2v2} {
		for _, name := range []string{"bot-random", "bot-greedy", "bot-pimc", "bot-expert"}[:rng.IntN(5)] {
			bots[f] = append(bots[f], Bot{Player: name, Rating: rng.Float64() * 35})
		}
	}
	return func(f Format) []Bot { return bots[f] }
}

// TestPairingProperties checks the rule on random pools: no seek sits twice, every table is
// full with distinct players of one pool, its spread never exceeds the window of any of its
// seeks at that moment, bots come only after BotAfter, 2v2 sides are the most balanced split,
// and two 2p seeks left searching never accept each other.
func TestPairingProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 20))
	for round := range 400 {
		rule := Rule{Window: rng.Float64() * 4, Growth: rng.Float64() * 2, MaxWindow: float64(rng.IntN(3)) * 10, BotAfter: time.Duration(rng.IntN(20)) * time.Second}
		seeks := randomPool(rng, 1+rng.IntN(120))
		tables := Pair(seeks, someBots(rng), epoch, rule)
		check(t, round, seeks, tables, rule)
	}
}

func check(t *testing.T, round int, seeks []Seek, tables []Table, rule Rule) {
	t.Helper()
	byID := map[string]Seek{}
	for _, s := range seeks {
		byID[s.ID] = s
	}
	seated := map[string]bool{}
	for _, tb := range tables {
		if len(tb.Seats) != Seats(tb.Format) {
			t.Fatalf("round %d: a %s table of %d seats", round, tb.Format, len(tb.Seats))
		}
		players := map[string]bool{}
		window, humans, waitedForBots := math.Inf(1), 0, false
		for _, st := range tb.Seats {
			if players[st.Player] {
				t.Fatalf("round %d: player %s sits twice at a table", round, st.Player)
			}
			players[st.Player] = true
			if st.Bot() {
				continue
			}
			s, ok := byID[st.Seek]
			if !ok || seated[st.Seek] {
				t.Fatalf("round %d: seek %q seated twice or unknown", round, st.Seek)
			}
			seated[st.Seek] = true
			if s.Pool != tb.Pool || s.Player != st.Player || s.Rating != st.Rating {
				t.Fatalf("round %d: seat %+v is not seek %+v of pool %s", round, st, s, tb.Pool)
			}
			humans++
			window = min(window, rule.WindowAt(s, epoch))
			waitedForBots = waitedForBots || epoch.Sub(s.Since) >= rule.BotAfter
		}
		if humans == 0 {
			t.Fatalf("round %d: a table of bots only", round)
		}
		if tb.Spread() > window+1e-9 || math.Abs(tb.Window-window) > 1e-9 {
			t.Fatalf("round %d: spread %.3f beyond the window %.3f (table says %.3f)", round, tb.Spread(), window, tb.Window)
		}
		if humans < len(tb.Seats) && (rule.BotAfter == 0 || !waitedForBots) {
			t.Fatalf("round %d: bots seated before any seek waited %s", round, rule.BotAfter)
		}
		if tb.Format == Format2v2 {
			s := tb.Seats
			for _, alt := range [][4]int{{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}} {
				gap := math.Abs(s[alt[0]].Rating + s[alt[1]].Rating - s[alt[2]].Rating - s[alt[3]].Rating)
				if gap < tb.SideGap()-1e-9 {
					t.Fatalf("round %d: sides differ by %.3f where a split differs by %.3f", round, tb.SideGap(), gap)
				}
			}
		}
	}
	// Maximal for two seats: two searching 2p seeks that accept each other would have met.
	for i, a := range seeks {
		for _, b := range seeks[:i] {
			if a.Format != Format2p || a.Pool != b.Pool || a.Player == b.Player || seated[a.ID] || seated[b.ID] {
				continue
			}
			gap := math.Abs(a.Rating - b.Rating)
			if gap <= rule.WindowAt(a, epoch) && gap <= rule.WindowAt(b, epoch) {
				t.Fatalf("round %d: %s and %s accept each other (gap %.3f) and were left searching", round, a.ID, b.ID, gap)
			}
		}
	}
}

// TestPairingExamples pins the rule's answers on small cases.
func TestPairingExamples(t *testing.T) {
	rule := Rule{Window: 2, Growth: 1, MaxWindow: 15, BotAfter: 15 * time.Second}
	at := func(id, player string, rating float64, waited time.Duration, f Format) Seek {
		return Seek{ID: id, Player: player, Pool: string(f), Format: f, Rating: rating, Since: epoch.Add(-waited)}
	}
	bots := func(Format) []Bot {
		return []Bot{{"bot-random", 2}, {"bot-greedy", 10}, {"bot-pimc", 18}, {"bot-expert", 24}}
	}
	t.Run("close ratings meet at once", func(t *testing.T) {
		got := Pair([]Seek{at("a", "ada", 10, 0, Format2p), at("b", "bob", 11.5, 0, Format2p)}, bots, epoch, rule)
		if len(got) != 1 || got[0].Seats[0].Seek != "a" || got[0].Seats[1].Seek != "b" {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("a far rating waits for the windows to widen", func(t *testing.T) {
		seeks := []Seek{at("a", "ada", 10, 0, Format2p), at("b", "bob", 16, 0, Format2p)}
		if got := Pair(seeks, bots, epoch, rule); len(got) != 0 {
			t.Fatalf("paired a gap of 6 at once: %+v", got)
		}
		if got := Pair(seeks, bots, epoch.Add(4*time.Second), rule); len(got) != 1 {
			t.Fatalf("a gap of 6 after 4 s (window 6): %+v", got)
		}
	})
	t.Run("the nearest seek is chosen", func(t *testing.T) {
		got := Pair([]Seek{at("a", "ada", 10, 5*time.Second, Format2p), at("b", "bob", 14, 0, Format2p), at("c", "cy", 11, 0, Format2p)}, bots, epoch, rule)
		if len(got) != 1 || got[0].Seats[1].Seek != "c" {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("a lone seek gets the nearest bots after BotAfter", func(t *testing.T) {
		seeks := []Seek{at("a", "ada", 17, 14*time.Second, Format3p)}
		if got := Pair(seeks, bots, epoch, rule); len(got) != 0 {
			t.Fatalf("bots before 15 s: %+v", got)
		}
		got := Pair(seeks, bots, epoch.Add(time.Second), rule)
		// greedy (10) and expert (24) are equally near 17: the first given sits.
		if len(got) != 1 || got[0].Seats[1].Player != "bot-pimc" || got[0].Seats[2].Player != "bot-greedy" {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("2v2 partners balance the sides", func(t *testing.T) {
		got := Pair([]Seek{at("a", "a", 10, 0, Format2v2), at("b", "b", 11, 0, Format2v2), at("c", "c", 11.5, 0, Format2v2), at("d", "d", 12, 0, Format2v2)}, bots, epoch, rule)
		if len(got) != 1 || got[0].Seats[2].Seek != "d" || got[0].SideGap() != 0.5 {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("one player never sits twice", func(t *testing.T) {
		got := Pair([]Seek{at("a", "ada", 10, 20*time.Second, Format2p), at("b", "ada", 10, 0, Format2p)}, nil, epoch, rule)
		if len(got) != 0 {
			t.Fatalf("got %+v", got)
		}
	})
}
