package bot_test

import (
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot"
)

// TestMonteCarloPlayersArePaced: given the strategies a seat may name, then the Monte Carlo
// players (whose decision time depends on the position) declare a floor above 0 for the
// referee to hold their decisions to, and random and greedy (microseconds whatever the view)
// declare none.
func TestMonteCarloPlayersArePaced(t *testing.T) {
	want := map[string]time.Duration{
		bot.NameRandom: 0,
		bot.NameGreedy: 0,
		bot.NamePIMC:   bot.PIMCMinDecision,
		bot.NameExpert: bot.ExpertMinDecision,
	}
	strategies := bot.Strategies(1)
	if len(strategies) != len(want) {
		t.Fatalf("%d strategies, this test knows %d: say whether the new one is paced", len(strategies), len(want))
	}
	for name, s := range strategies {
		var got time.Duration
		p, paced := s.(domain.Paced)
		if paced {
			got = p.MinDecision()
		}
		if got != want[name] || paced != (want[name] > 0) {
			t.Errorf("%s: paced %v with floor %v, want floor %v", name, paced, got, want[name])
		}
	}
	if _, ok := domain.Strategy(bot.NewExpert(1, 60)).(domain.Paced); !ok {
		t.Error("an expert with any budget must be paced")
	}
}
