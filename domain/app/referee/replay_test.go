package referee_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/internal/matchtest"
	"github.com/allfives/allfives/repository/memstore"
)

// tracked is what a reader of the events alone knows after each one: scores, hands, the
// boneyard's size, the hand in play and the ends' total.
type tracked struct {
	table    domain.Table
	scores   []int
	hands    [][]domain.Tile
	boneyard int
	hand     int
	total    int
}

func (tr *tracked) follow(t *testing.T, e domain.Event) {
	t.Helper()
	switch d := e.Data.(type) {
	case domain.MatchCreated:
		table, err := domain.NewTable(len(d.Players), d.Partnerships)
		if err != nil {
			t.Fatal(err)
		}
		tr.table, tr.scores = table, make([]int, table.Sides())
	case domain.HandStarted:
		tr.hands, tr.boneyard, tr.hand, tr.total = nil, len(d.Boneyard), d.Hand, 0
		for _, h := range d.Hands {
			tr.hands = append(tr.hands, slices.Clone(h))
		}
	case domain.TilePlayed:
		i := slices.Index(tr.hands[d.Seat], d.Tile)
		tr.hands[d.Seat] = slices.Delete(tr.hands[d.Seat], i, i+1)
		tr.scores[tr.table.SideOf(d.Seat)] += d.Points
		tr.total = d.Total
	case domain.TileDrawn:
		tr.hands[d.Seat] = append(tr.hands[d.Seat], *d.Tile)
		tr.boneyard--
	case domain.HandEnded:
		tr.scores = slices.Clone(d.Scores)
	}
}

// checkStep compares a replayed view with what the events say.
func (tr *tracked) checkStep(t *testing.T, step int, v domain.Viewer, view domain.MatchView) {
	t.Helper()
	if view.Version != step || !slices.Equal(view.Scores, tr.scores) {
		t.Fatalf("step %d: version %d, scores %v; the events give scores %v", step, view.Version, view.Scores, tr.scores)
	}
	for s, h := range tr.hands {
		if view.Seats[s].Tiles != len(h) {
			t.Fatalf("step %d: seat %d holds %d tiles, the events give %d", step, s, view.Seats[s].Tiles, len(h))
		}
	}
	if seat, ok := v.Seat(); ok && tr.hands != nil && !slices.Equal(view.You.Tiles, tr.hands[seat]) {
		t.Fatalf("step %d: seat %d holds %v, the events give %v", step, seat, view.You.Tiles, tr.hands[seat])
	}
	if view.Status == domain.StatusFinished || step < 2 {
		return
	}
	h := view.Hand
	if h.Number != tr.hand || h.Total != tr.total || h.Boneyard != tr.boneyard {
		t.Fatalf("step %d: hand %d, total %d, boneyard %d; the events give %d, %d, %d", step, h.Number, h.Total, h.Boneyard, tr.hand, tr.total, tr.boneyard)
	}
	if n := len(h.Line); n > 0 && (h.Left.Pip != h.Line[0].Left || h.Right.Pip != h.Line[n-1].Right) {
		t.Fatalf("step %d: ends %+v|%+v do not match the line %v", step, h.Left, h.Right, h.Line)
	}
}

func TestReplayEveryStepAgreesWithTheEvents(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for i, shape := range matchtest.Shapes {
		t.Run(shape.Name, func(t *testing.T) {
			// given a finished match
			log := matchtest.PlayOut(t, matchtest.Spec(shape, 100), matchtest.Seed(byte(40+i)), matchtest.RandomMove(rng), 0)
			final, err := domain.Rebuild("m", log)
			if err != nil {
				t.Fatal(err)
			}
			viewers := []domain.Viewer{domain.Spectator()}
			for s := range shape.Players {
				viewers = append(viewers, domain.SeatViewer(s))
			}
			for _, v := range viewers {
				tr := &tracked{}
				var view domain.MatchView
				for step := 1; step <= len(log); step++ {
					// when the viewer replays each step
					var e domain.Event
					e, view, err = domain.ReplayStep("m", log, step, true, v)
					if err != nil {
						t.Fatalf("step %d: %v", step, err)
					}
					// then the event is the stored one, unredacted, and the view agrees with it
					if e.Seq != step || e.Type != log[step-1].Type {
						t.Fatalf("step %d gave event %d %s", step, e.Seq, e.Type)
					}
					tr.follow(t, e)
					tr.checkStep(t, step, v, view)
				}
				// and the last step is the final state
				sameJSON(t, "last step", view, final.View(v))
			}
		})
	}
}

func TestReplayStepOfALiveMatch(t *testing.T) {
	log := matchtest.PlayOut(t, matchtest.Spec(matchtest.Shapes[2], 0), matchtest.Seed(7), matchtest.FirstMove, 30)
	tests := []struct {
		name    string
		step    int
		viewer  domain.Viewer
		wantErr error
	}{
		{"step 0", 0, domain.Spectator(), domain.ErrInvalid},
		{"past the log", len(log) + 1, domain.Spectator(), domain.ErrInvalid},
		{"the deal, to a spectator", 2, domain.Spectator(), nil},
		{"the deal, to seat 2", 2, domain.SeatViewer(2), nil},
		{"the last event, to seat 1", len(log), domain.SeatViewer(1), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// given a live four-seat match; when the viewer replays the step
			e, view, err := domain.ReplayStep("m", log, tt.step, false, tt.viewer)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			// then the event and the view show no tile the viewer may not see
			if want := tt.viewer.Redact(log[tt.step-1], false); !equalJSON(e, want) {
				t.Errorf("event %+v, want it redacted as %+v", e, want)
			}
			seat, isSeat := tt.viewer.Seat()
			if isSeat != (view.You != nil) || (isSeat && view.You.Seat != seat) {
				t.Errorf("you = %+v for viewer %+v", view.You, tt.viewer)
			}
			if view.Status != domain.StatusInProgress || view.Hand == nil {
				t.Errorf("a live step shows status %s, hand %v", view.Status, view.Hand)
			}
		})
	}
}

func TestReplayOfAFinishedMatchShowsEveryHand(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, memstore.New(), 16)
	c := create(t, svc, bots(3, false))
	_, view, err := svc.Replay(ctx, c.Match.ID, domain.Spectator(), 2)
	if err != nil {
		t.Fatal(err)
	}
	if view.Hand == nil || len(view.Hand.Hands) != 3 || len(view.Hand.Hands[1]) != 5 || len(view.Hand.BoneyardTiles) != view.Hand.Boneyard {
		t.Fatalf("finished replay at step 2 hides hands: %+v", view.Hand)
	}
	live := create(t, svc, twoHumans(""))
	_, view, err = svc.Replay(ctx, live.Match.ID, domain.Spectator(), 2)
	if err != nil || view.Hand.Hands != nil || view.Hand.BoneyardTiles != nil {
		t.Fatalf("live replay shows hands: %+v %v", view.Hand, err)
	}
}
