package seeks

import (
	"context"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/matchmaking"
	"github.com/allfives/allfives/domain/openskill"
)

// botNames is a Matches that serves these strategies; the paths under test call nothing else.
type botNames struct {
	Matches
	names []string
}

func (b botNames) BotNames() []string { return b.names }

// settled holds bot-b's settled 2p rating and bot-c's provisional one.
type settled struct{}

func (settled) PlayerStandings(_ context.Context, player string) ([]ratings.Standing, error) {
	switch player {
	case "bot-b":
		return []ratings.Standing{{Player: player, Format: ratings.Format2p, Rating: openskill.Rating{Mu: 12, Sigma: 1}, Matches: 500, Established: 500}}, nil
	case "bot-c":
		return []ratings.Standing{{Player: player, Format: ratings.Format2p, Rating: openskill.Rating{Mu: 25, Sigma: 7}, Matches: 1, Established: 1}}, nil
	}
	return nil, nil
}

// TestBotStart: the fallback places a bot at its starting rating (Config.BotStart) while it
// has none of its own or a provisional one, at its own once that settles, and at the prior's
// with no start; so a fresh server tells its levels apart.
func TestBotStart(t *testing.T) {
	start := map[string]float64{"a": 3, "b": 20, "c": 30}
	s := New(Config{
		Matches: botNames{names: []string{"a", "b", "c", "d"}}, Standings: settled{},
		BotStart: func(name string, f matchmaking.Format) (float64, bool) {
			r, ok := start[name]
			return r, ok && f == matchmaking.Format2p
		},
	})
	bots, err := s.botRatings(context.Background(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	fresh := openskill.Default().New().Ordinal()
	want := map[string]float64{"bot-a": 3, "bot-b": openskill.Rating{Mu: 12, Sigma: 1}.Ordinal(), "bot-c": 30, "bot-d": fresh}
	got := map[string]float64{}
	for _, b := range bots[matchmaking.Format2p] {
		got[b.Player] = b.Rating
	}
	for p, r := range want {
		if got[p] != r {
			t.Errorf("2p: %s placed at %v, want %v", p, got[p], r)
		}
	}
	for _, b := range bots[matchmaking.Format3p] {
		if b.Rating != fresh {
			t.Errorf("3p, where no bot has a start: %s at %v, want the prior's %v", b.Player, b.Rating, fresh)
		}
	}
	pick := matchmaking.Pair([]matchmaking.Seek{{ID: "s", Player: "p", Format: matchmaking.Format2p, Rating: 28, Since: time.Unix(0, 0)}},
		func(f matchmaking.Format) []matchmaking.Bot { return bots[f] }, time.Unix(60, 0), matchmaking.DefaultRule())
	if len(pick) != 1 || pick[0].Seats[1].Player != "bot-c" && pick[0].Seats[0].Player != "bot-c" {
		t.Fatalf("a seeker at 28 was paired %+v, want bot-c (started at 30)", pick)
	}
}
