package referee_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/referee/refereetest"
	"github.com/allfives/allfives/domain/audit"
	"github.com/allfives/allfives/domain/internal/matchtest"
	"github.com/allfives/allfives/repository/memstore"
)

func TestReplayServiceSteps(t *testing.T) {
	ctx := context.Background()
	svc := refereetest.Service(memstore.New(), 1)
	live := refereetest.Create(t, svc, matchtest.Shapes[0], 1, 0) // seat 0 human: the match waits for it
	version := live.Match.Version
	tests := []struct {
		name    string
		step    int
		wantErr error
	}{
		{"step zero is out of range", 0, domain.ErrInvalid},
		{"a negative step is out of range", -3, domain.ErrInvalid},
		{"a step past the version is out of range", version + 1, domain.ErrInvalid},
		{"the first step", 1, nil},
		{"the last step", version, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// given a live match; when a spectator replays the step
			e, view, err := svc.Replay(ctx, live.Match.ID, domain.Spectator(), tt.step)
			// then an out-of-range step is a 400 and an in-range one is that event and state
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr != nil {
				return
			}
			if e.Seq != tt.step || view.Version != tt.step {
				t.Errorf("got event %d and version %d, want step %d", e.Seq, view.Version, tt.step)
			}
		})
	}
	if _, _, err := svc.Replay(ctx, "nope", domain.Spectator(), 1); !errors.Is(err, domain.ErrMatchNotFound) {
		t.Errorf("unknown match: err = %v, want ErrMatchNotFound", err)
	}
}

func TestReplayServiceRedactsALiveMatch(t *testing.T) {
	ctx := context.Background()
	svc := refereetest.Service(memstore.New(), 2)
	live := refereetest.Create(t, svc, matchtest.Shapes[0], 1, 0)
	tests := []struct {
		name   string
		viewer domain.Viewer
		seen   []bool // whose hands in hand 1's deal the viewer sees
	}{
		{"a spectator sees no hand", domain.Spectator(), []bool{false, false}},
		{"seat 0 sees its own hand only", domain.SeatViewer(0), []bool{true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// given a live match; when the viewer replays step 2, the first deal
			e, view, err := svc.Replay(ctx, live.Match.ID, tt.viewer, 2)
			if err != nil {
				t.Fatal(err)
			}
			// then the deal shows only the viewer's hand and no boneyard order
			d := e.Data.(domain.HandStarted)
			for s, want := range tt.seen {
				if got := d.Hands[s] != nil; got != want {
					t.Errorf("seat %d's hand shown = %v, want %v", s, got, want)
				}
			}
			if d.Boneyard != nil {
				t.Errorf("boneyard order shown in a live match: %v", d.Boneyard)
			}
			if seat, ok := tt.viewer.Seat(); ok != (view.You != nil) || (ok && view.You.Seat != seat) {
				t.Errorf("you = %+v for viewer seat %d (%v)", view.You, seat, ok)
			}
		})
	}
}

func TestExportRefoldsToTheFinalState(t *testing.T) {
	ctx := context.Background()
	for i, shape := range matchtest.Shapes {
		t.Run(shape.Name, func(t *testing.T) {
			// given a finished match of bots
			svc := refereetest.Service(memstore.New(), uint64(10+i))
			c := refereetest.Create(t, svc, shape, 0, 100)
			// when it is exported as JSON and decoded
			rec, err := svc.Export(ctx, c.Match.ID, domain.Spectator())
			if err != nil {
				t.Fatal(err)
			}
			raw, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			var back struct {
				Events []domain.Event `json:"events"`
			}
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatalf("decode export: %v", err)
			}
			// then the events re-fold to the exported view and to the service's own state
			m, err := domain.Rebuild(c.Match.ID, back.Events)
			if err != nil {
				t.Fatalf("re-fold: %v", err)
			}
			if !m.Finished() {
				t.Fatal("the exported match is not finished")
			}
			view, err := svc.View(ctx, c.Match.ID, domain.Spectator())
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, "view", m.View(domain.Spectator()), rec.Match)
			sameJSON(t, "view", m.View(domain.Spectator()), view)
			stored, err := svc.History(ctx, referee.HistoryQuery{})
			if err != nil || len(stored.Matches) != 1 {
				t.Fatalf("history: %v, %d matches", err, len(stored.Matches))
			}
			sameJSON(t, "summary", m.Summary(), stored.Matches[0].Summary)
			// and anyone holding the export can audit it
			for _, ch := range audit.Events(c.Match.ID, audit.LogRead{Events: back.Events}, domain.Spectator()) {
				if !ch.OK {
					t.Errorf("audit of the export: %s failed: %s", ch.Name, ch.Detail)
				}
			}
		})
	}
}

func TestExportRedactsALiveMatch(t *testing.T) {
	// given a live two-seat match with a human at seat 0
	ctx := context.Background()
	svc := refereetest.Service(memstore.New(), 3)
	live := refereetest.Create(t, svc, matchtest.Shapes[0], 1, 0)
	// when a spectator exports it
	rec, err := svc.Export(ctx, live.Match.ID, domain.Spectator())
	if err != nil {
		t.Fatal(err)
	}
	// then no hand and no boneyard order is shown, and the log ends at the view's version
	if n := len(rec.Events); n != rec.Match.Version {
		t.Errorf("%d events for version %d", n, rec.Match.Version)
	}
	for _, e := range rec.Events {
		if d, ok := e.Data.(domain.HandStarted); ok && (d.Boneyard != nil || d.Hands[0] != nil || d.Hands[1] != nil) {
			t.Errorf("seq %d shows hidden tiles to a spectator: %+v", e.Seq, d)
		}
		if d, ok := e.Data.(domain.TileDrawn); ok && d.Tile != nil {
			t.Errorf("seq %d shows a drawn tile to a spectator", e.Seq)
		}
	}
}

// sameJSON compares two values by their JSON, which is what clients see.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	g, err1 := json.Marshal(got)
	w, err2 := json.Marshal(want)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(g, w) {
		t.Errorf("%s differs:\n got %s\nwant %s", what, g, w)
	}
}

func equalJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
