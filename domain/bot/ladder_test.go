package bot

import (
	"maps"
	"slices"
	"testing"
)

// TestLadderRating: the ladder holds every strategy a seat may name in every format, and
// nothing else.
func TestLadderRating(t *testing.T) {
	if got, want := slices.Sorted(maps.Keys(ladder)), slices.Sorted(maps.Keys(Strategies(1))); !slices.Equal(got, want) {
		t.Fatalf("the ladder holds %v, the strategies are %v", got, want)
	}
	for _, n := range AllNames() {
		for i, f := range ladderFormats {
			if r, ok := LadderRating(n, f); !ok || r != ladder[n][i] {
				t.Errorf("LadderRating(%q, %q) = %v, %v", n, f, r, ok)
			}
		}
	}
	for _, bad := range [][2]string{{"level-9", "2p"}, {"expert", "5p"}, {"", ""}} {
		if _, ok := LadderRating(bad[0], bad[1]); ok {
			t.Errorf("LadderRating(%q, %q) answers", bad[0], bad[1])
		}
	}
}

// TestLadderLevelsRise: in every format, where the levels' ratings rise in order (docs/bots.md,
// "The levels' ratings"), the fallback's nearest rating must find a stronger level for a
// stronger player, so the ladder's levels rise from random to level-8.
func TestLadderLevelsRise(t *testing.T) {
	for _, f := range ladderFormats {
		prev, _ := LadderRating(NameRandom, f)
		for _, n := range LevelNames() {
			r, _ := LadderRating(n, f)
			if r <= prev {
				t.Errorf("%s stands at %v in %s, not above the level below it (%v)", n, r, f, prev)
			}
			prev = r
		}
	}
}

// TestWeakestFirstFollowsTheLadder: WeakestFirst holds every strategy once, each rated in two
// players at least as high as the one before it, so that the API's enum and the web form
// list the bots from the weakest measured to the strongest.
func TestWeakestFirstFollowsTheLadder(t *testing.T) {
	got := WeakestFirst()
	if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(AllNames()))) {
		t.Fatalf("WeakestFirst lists %v, the strategies are %v", got, AllNames())
	}
	for i := 1; i < len(got); i++ {
		lo, _ := LadderRating(got[i-1], "2p")
		hi, _ := LadderRating(got[i], "2p")
		if hi < lo {
			t.Errorf("%s (%v in 2p) comes after %s (%v)", got[i], hi, got[i-1], lo)
		}
	}
}
