package domain

import (
	"strings"
	"testing"
)

// two is a plain 2-player table.
var two = table{players: 2}

func TestRound5(t *testing.T) {
	want := map[int]int{0: 0, 1: 0, 2: 0, 3: 5, 4: 5, 5: 5, 7: 5, 8: 10, 12: 10, 13: 15, 22: 20, 23: 25, 27: 25, 28: 30, 30: 30}
	for x := 0; x <= 30; x++ {
		got := Round5(x)
		if w, ok := want[x]; ok && got != w {
			t.Errorf("Round5(%d) = %d, want %d", x, got, w)
		}
		// Nearest multiple of five, halves up: never more than 2 away.
		if got%5 != 0 || got-x > 2 || x-got > 2 {
			t.Errorf("Round5(%d) = %d is not the nearest multiple of 5", x, got)
		}
	}
}

func TestLeadScores(t *testing.T) {
	cases := []struct {
		lead          string
		total, points int
	}{
		{"5-5", 10, 10}, {"6-4", 10, 10}, {"5-0", 5, 5}, {"4-1", 5, 5},
		{"2-4", 6, 0}, {"3-3", 6, 0}, {"6-6", 12, 0}, {"0-0", 0, 0},
	}
	for _, c := range cases {
		t.Run(c.lead, func(t *testing.T) {
			m := given(t, createdEvent(two), dealEvent(1, deal{hands: []string{c.lead + " 1-2", "0-1 0-2"}, boneyard: "1-1"}))
			got, err := when(t, m, play(0, c.lead, Left))
			if err != nil {
				t.Fatal(err)
			}
			thenData(t, got, TilePlayed{Seat: 0, Tile: MustTile(c.lead), End: Left, Total: c.total, Points: c.points})
		})
	}
}

func TestEndScores(t *testing.T) {
	cases := []struct {
		name   string
		hands  []string
		cmds   []command
		wantTP TilePlayed
		line   string
	}{
		{"2|4 then 4-3 makes 5", []string{"2-4 0-0", "3-4 0-1"},
			[]command{play(0, "2-4", Left), play(1, "4-3", Right)},
			TilePlayed{Seat: 1, Tile: MustTile("3-4"), End: Right, Total: 5, Points: 5}, "2-4 4-3"},
		{"2|4 then 4-4 makes 10", []string{"2-4 0-0", "4-4 0-1"},
			[]command{play(0, "2-4", Left), play(1, "4-4", Right)},
			TilePlayed{Seat: 1, Tile: MustTile("4-4"), End: Right, Total: 10, Points: 10}, "2-4 4-4"},
		{"6-6 then 6-3 makes 15", []string{"6-6 0-0", "3-6 0-1"},
			[]command{play(0, "6-6", Left), play(1, "6-3", Right)},
			TilePlayed{Seat: 1, Tile: MustTile("3-6"), End: Right, Total: 15, Points: 15}, "6-6 6-3"},
		{"then 6-2 on the other side makes 5", []string{"6-6 2-6 0-0", "3-6 0-1 1-1"},
			[]command{play(0, "6-6", Left), play(1, "6-3", Right), play(0, "6-2", Left)},
			TilePlayed{Seat: 0, Tile: MustTile("2-6"), End: Left, Total: 5, Points: 5}, "2-6 6-6 6-3"},
		{"doubles 4-4 and 6-6 at the ends make 20", []string{"4-6 6-6 0-0", "4-4 0-1 1-1"},
			[]command{play(0, "4-6", Left), play(1, "4-4", Left), play(0, "6-6", Right)},
			TilePlayed{Seat: 0, Tile: MustTile("6-6"), End: Right, Total: 20, Points: 20}, "4-4 4-6 6-6"},
		{"after a 5-5 lead 5-0 makes 10", []string{"5-5 0-0", "0-5 0-1"},
			[]command{play(0, "5-5", Left), play(1, "5-0", Left)},
			TilePlayed{Seat: 1, Tile: MustTile("0-5"), End: Left, Total: 10, Points: 10}, "0-5 5-5"},
		{"end inferred when the tile fits one end", []string{"2-4 0-0", "3-4 0-1"},
			[]command{play(0, "2-4", Left), {1, Move{Action: ActionPlay, Tile: MustTile("3-4")}}},
			TilePlayed{Seat: 1, Tile: MustTile("3-4"), End: Right, Total: 5, Points: 5}, "2-4 4-3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := given(t, createdEvent(two), dealEvent(1, deal{hands: c.hands, boneyard: "1-2 1-3"}))
			got, err := when(t, m, c.cmds...)
			if err != nil {
				t.Fatal(err)
			}
			thenData(t, got, c.wantTP)
			var names []string
			for _, l := range m.hand.line.Tiles() {
				names = append(names, l.String())
			}
			if line := strings.Join(names, " "); line != c.line {
				t.Errorf("line %q, want %q", line, c.line)
			}
		})
	}
}
