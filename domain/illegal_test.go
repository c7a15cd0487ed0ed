package domain

import (
	"errors"
	"testing"
)

func TestIllegalActions(t *testing.T) {
	// Seat 0 must lead 6-6 (highest double); after it, seat 1 holds 6-1 (fits) and 2-3.
	highest := deal{hands: []string{"6-6 5-5 0-1", "1-6 2-3 4-4"}, boneyard: "0-0 0-2", lead: LeadHighestDouble}
	// Seat 1 holds nothing that fits 6|6 with an empty boneyard.
	dry := deal{hands: []string{"6-6 3-6 0-1", "2-3 4-5"}, leader: 0}
	cases := []struct {
		name string
		deal deal
		cmds []command
		want error
	}{
		{"not your turn", highest, []command{play(1, "1-6", Left)}, ErrNotYourTurn},
		{"no such seat", highest, []command{play(7, "1-6", Left)}, ErrInvalid},
		{"must lead the highest double", highest, []command{play(0, "5-5", Left)}, ErrMustLeadDouble},
		{"tile not in hand", highest, []command{play(0, "2-2", Left)}, ErrTileNotInHand},
		{"tile does not fit", highest, []command{play(0, "6-6", Left), play(1, "2-3", Left)}, ErrTileDoesNotFit},
		{"tile does not fit the end named", deal{hands: []string{"2-4 0-0", "4-5 1-1"}, boneyard: "0-1"},
			[]command{play(0, "2-4", Left), play(1, "4-5", Left)}, ErrTileDoesNotFit},
		{"must play rather than draw", highest, []command{play(0, "6-6", Left), {1, Draw()}}, ErrMustPlay},
		{"must play rather than pass", highest, []command{play(0, "6-6", Left), {1, Pass()}}, ErrMustPlay},
		{"must draw rather than pass", deal{hands: []string{"6-6 1-1", "2-3 0-0"}, boneyard: "0-1"},
			[]command{play(0, "6-6", Left), {1, Pass()}}, ErrMustDraw},
		{"must pass when the boneyard is empty", dry, []command{play(0, "6-6", Left), {1, Draw()}}, ErrMustPass},
		{"unknown action", highest, []command{{0, Move{}}}, ErrInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := given(t, createdEvent(two), dealEvent(1, c.deal))
			before := m.Clone()
			_, err := when(t, m, c.cmds...)
			thenError(t, err, c.want)
			if CodeOf(err) == CodeInternal {
				t.Errorf("error %v has no stable code", err)
			}
			if len(c.cmds) == 1 && m.version != before.version {
				t.Errorf("a refused command changed the match")
			}
		})
	}
}

func TestEndRequired(t *testing.T) {
	// Ends 3|4: 4-5 fits only the right end, so no end need be named.
	m2 := given(t, createdEvent(two), dealEvent(1, deal{hands: []string{"3-4 1-1", "3-5 4-5 0-0"}, boneyard: "2-2"}))
	_, err := when(t, m2, play(0, "3-4", Left), command{1, Move{Action: ActionPlay, Tile: MustTile("4-5")}})
	if err != nil {
		t.Fatalf("4-5 fits only the right end: %v", err)
	}
	// Ends 3|3 (a lone double): 3-5 fits both, so the referee must be told which.
	m3 := given(t, createdEvent(two), dealEvent(1, deal{hands: []string{"3-3 1-1", "3-5 0-0"}, boneyard: "2-2"}))
	_, err = when(t, m3, play(0, "3-3", Left), command{1, Move{Action: ActionPlay, Tile: MustTile("3-5")}})
	thenError(t, err, ErrEndRequired)
	if _, err := when(t, m3, command{1, Play(MustTile("3-5"), Right)}); err != nil {
		t.Fatalf("with the end named: %v", err)
	}
}

func TestAfterDrawTurnStays(t *testing.T) {
	m := given(t, createdEvent(two), dealEvent(1, deal{hands: []string{"6-6 1-1", "2-3 0-0"}, boneyard: "0-1 1-6 0-2"}))
	got, err := when(t, m, play(0, "6-6", Left), command{1, Draw()})
	if err != nil {
		t.Fatal(err)
	}
	thenData(t, got, TileDrawn{Seat: 1, Tile: ptr(MustTile("0-1"))})
	if m.Turn() != 1 {
		t.Fatalf("turn %d after a draw, want 1", m.Turn())
	}
	got, err = when(t, m, command{1, Draw()}, play(1, "1-6", Right))
	if err != nil {
		t.Fatalf("the drawn 1-6 fits and may be played: %v", err)
	}
	thenData(t, got, TilePlayed{Seat: 1, Tile: MustTile("1-6"), End: Right, Total: 13})
	if m.Turn() != 0 {
		t.Fatalf("turn %d after a play, want 0", m.Turn())
	}
}

func TestErrorCodesAreStable(t *testing.T) {
	for err, code := range map[error]Code{
		ErrNotYourTurn: "NOT_YOUR_TURN", ErrMatchFinished: "MATCH_FINISHED", ErrTileNotInHand: "TILE_NOT_IN_HAND",
		ErrTileDoesNotFit: "TILE_DOES_NOT_FIT", ErrEndRequired: "END_REQUIRED", ErrMustLeadDouble: "MUST_LEAD_DOUBLE",
		ErrMustPlay: "MUST_PLAY", ErrMustDraw: "MUST_DRAW", ErrMustPass: "MUST_PASS", ErrBadTile: "INVALID_REQUEST",
		&VersionConflictError{Expected: 3, Current: 5}: "VERSION_CONFLICT",
	} {
		if got := CodeOf(err); got != code {
			t.Errorf("CodeOf(%v) = %s, want %s", err, got, code)
		}
	}
	if !errors.Is(&VersionConflictError{}, ErrVersionConflict) {
		t.Error("VersionConflictError does not unwrap to ErrVersionConflict")
	}
}
