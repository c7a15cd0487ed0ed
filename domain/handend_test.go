package domain

import (
	"errors"
	"fmt"
	"testing"
)

func TestGoingOut(t *testing.T) {
	t.Run("each opponent rounded on its own: 12 and 12 score 20", func(t *testing.T) {
		// Seat 0 leads its last tile 1-2 (3: no points) and goes out; seats 1 and 2 hold 12 each.
		m := given(t, createdEvent(table{players: 3}), dealEvent(1, deal{
			hands: []string{"1-2", "6-6", "5-6 0-1"}, boneyard: "0-0",
		}))
		got, err := when(t, m, play(0, "1-2", Left))
		if err != nil {
			t.Fatal(err)
		}
		thenTypes(t, got, TypeTilePlayed, TypeHandEnded, TypeHandStarted)
		thenData(t, got,
			TilePlayed{Seat: 0, Tile: MustTile("1-2"), End: Left, Total: 3, Points: 0},
			HandEnded{Hand: 1, Outcome: OutcomeDomino, Seat: ptr(0), WinnerSide: ptr(0),
				Pips: []int{0, 12, 12}, Points: 20, Scores: []int{20, 0, 0}})
		next := got[2].Data.(HandStarted)
		if next.Hand != 2 || next.Leader != 0 || next.Lead != LeadWinner {
			t.Errorf("next hand %d led by %d (%s), want hand 2 led by the winner, seat 0", next.Hand, next.Leader, next.Lead)
		}
		// The winner may lead any tile: the first tile of its new hand is legal whatever it is.
		if _, err := when(t, m, command{0, Play(m.hand.hands[0][0], Left)}); err != nil {
			t.Errorf("winner's free lead refused: %v", err)
		}
	})
	t.Run("a partnership going out ignores the partner's hand", func(t *testing.T) {
		m := given(t, createdEvent(table{players: 4, partnerships: true}), dealEvent(1, deal{
			hands: []string{"0-1", "2-2", "6-6 5-5", "3-3"}, boneyard: "0-0",
		}))
		got, err := when(t, m, play(0, "0-1", Left))
		if err != nil {
			t.Fatal(err)
		}
		// Opponents are seats 1 and 3 (side 1): 4 -> 5 and 6 -> 5. Seat 2's 22 pips do not count.
		thenData(t, got, TilePlayed{Seat: 0, Tile: MustTile("0-1"), End: Left, Total: 1},
			HandEnded{Hand: 1, Outcome: OutcomeDomino, Seat: ptr(0), WinnerSide: ptr(0),
				Pips: []int{0, 4, 22, 6}, Points: 10, Scores: []int{10, 0}})
	})
}

func TestBlockedHands(t *testing.T) {
	cases := []struct {
		name   string
		tb     table
		hands  []string
		cmds   []command
		winner *int
		pips   []int
		points int
	}{
		// Seat 0 plays 0-5 on the 5-5 lead: ends 0 and 5-5. Seat 0 holds 0-1 (1), seat 1 holds 6-4 (10).
		// 5-5 lead, seat 1 passes, 5-3 makes ends 5-5|3: seat 0 holds 0-1 (1), seat 1 4-6 (10).
		{"1 against 10 scores 10", two, []string{"5-5 3-5 0-1", "4-6"},
			[]command{play(0, "5-5", Left), {1, Pass()}, play(0, "3-5", Right)}, ptr(0), []int{1, 10}, 10},
		{"2 against 2 scores nothing", two, []string{"3-4 1-1", "0-2"},
			[]command{play(0, "3-4", Left)}, nil, []int{2, 2}, 0},
		{"3 players 2, 2, 13 tie and score nothing", table{players: 3}, []string{"3-4 1-1", "0-2", "6-6 0-1"},
			[]command{play(0, "3-4", Left)}, nil, []int{2, 2, 13}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := given(t, createdEvent(c.tb), dealEvent(1, deal{hands: c.hands}))
			got, err := when(t, m, c.cmds...)
			if err != nil {
				t.Fatal(err)
			}
			var ended HandEnded
			for _, e := range got {
				if d, ok := e.Data.(HandEnded); ok {
					ended = d
				}
			}
			if ended.Outcome != OutcomeBlocked {
				t.Fatalf("events %v: want a blocked hand.ended", typesOf(got))
			}
			if (ended.WinnerSide == nil) != (c.winner == nil) || (c.winner != nil && *ended.WinnerSide != *c.winner) {
				t.Errorf("winner %v, want %v", ended.WinnerSide, c.winner)
			}
			if ended.Points != c.points || ended.Seat != nil {
				t.Errorf("points %d seat %v, want %d and no seat", ended.Points, ended.Seat, c.points)
			}
			if len(ended.Pips) != len(c.pips) {
				t.Fatalf("pips %v, want %v", ended.Pips, c.pips)
			}
			for i := range c.pips {
				if ended.Pips[i] != c.pips[i] {
					t.Errorf("pips %v, want %v", ended.Pips, c.pips)
				}
			}
			next := got[len(got)-1].Data.(HandStarted)
			if next.Lead != LeadHighestDouble {
				t.Errorf("after a block the lead rule is %s, want highest_double", next.Lead)
			}
			_, double, _ := Deal{Hands: next.Hands}.HighestDouble()
			if err := playLead(m, next.Leader, double); err != nil {
				t.Errorf("leading the highest double %s: %v", double, err)
			}
		})
	}
}

// playLead checks that the leader must lead double: any other tile is refused, double is not.
func playLead(m *Match, seat int, double Tile) error {
	for _, t := range m.hand.hands[seat] {
		if _, err := m.Decide(seat, Play(t, Left), testAt); t != double && !errors.Is(err, ErrMustLeadDouble) {
			return fmt.Errorf("leading %s: %v, want ErrMustLeadDouble", t, err)
		}
	}
	_, err := m.Decide(seat, Play(double, Left), testAt)
	return err
}

func TestBlockedAfterDraw(t *testing.T) {
	// Seat 1 cannot play on 3|4, draws the last tile 6-6, which does not fit: nobody can play.
	m := given(t, createdEvent(two), dealEvent(1, deal{hands: []string{"3-4 0-1", "2-2"}, boneyard: "6-6"}))
	got, err := when(t, m, play(0, "3-4", Left), command{1, Draw()})
	if err != nil {
		t.Fatal(err)
	}
	thenTypes(t, got, TypeTileDrawn, TypeHandEnded, TypeHandStarted)
	thenData(t, got, TileDrawn{Seat: 1, Tile: ptr(MustTile("6-6"))},
		HandEnded{Hand: 1, Outcome: OutcomeBlocked, WinnerSide: ptr(0), Pips: []int{1, 16}, Points: 15, Scores: []int{15, 0}})
}

func TestMatchEnds(t *testing.T) {
	t.Run("mid-hand the moment a play reaches the target", func(t *testing.T) {
		m := given(t, createdEvent(table{players: 2, target: 10}), dealEvent(1, deal{hands: []string{"5-5 0-1", "0-2"}, boneyard: "1-1"}))
		got, err := when(t, m, play(0, "5-5", Left))
		if err != nil {
			t.Fatal(err)
		}
		thenTypes(t, got, TypeTilePlayed, TypeMatchEnded)
		thenData(t, got[1:], MatchEnded{WinnerSide: 0, Scores: []int{10, 0}, Seed: Seed{}.String()})
		if _, err := when(t, m, command{1, Draw()}); err != ErrMatchFinished {
			t.Errorf("move after the end: %v, want ErrMatchFinished", err)
		}
	})
	t.Run("going out: the play's points count before the bonus", func(t *testing.T) {
		m := given(t, createdEvent(table{players: 2, target: 10}), dealEvent(1, deal{hands: []string{"5-5", "6-6"}, boneyard: "1-1"}))
		got, _ := when(t, m, play(0, "5-5", Left))
		thenTypes(t, got, TypeTilePlayed, TypeMatchEnded)
	})
	t.Run("the hand bonus can end the match", func(t *testing.T) {
		m := given(t, createdEvent(table{players: 2, target: 10}), dealEvent(1, deal{hands: []string{"1-2", "6-6"}, boneyard: "1-1"}))
		got, _ := when(t, m, play(0, "1-2", Left))
		thenTypes(t, got, TypeTilePlayed, TypeHandEnded, TypeMatchEnded)
		thenData(t, got[2:], MatchEnded{WinnerSide: 0, Scores: []int{10, 0}, Seed: Seed{}.String()})
	})
	t.Run("below the target play goes on", func(t *testing.T) {
		m := given(t, createdEvent(table{players: 2, target: 15}), dealEvent(1, deal{hands: []string{"5-5 0-1", "0-2"}, boneyard: "1-1"}))
		got, _ := when(t, m, play(0, "5-5", Left))
		thenTypes(t, got, TypeTilePlayed)
	})
}
