package domain_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/memstore"
)

// recTable is one table shape of DESIGN 1.2.
type recTable struct {
	name         string
	players      int
	partnerships bool
}

var recTables = []recTable{
	{"two", 2, false}, {"three", 3, false}, {"four alone", 4, false}, {"four partners", 4, true},
}

// recStart is the fixed clock's first reading; each event of a played-out match is a second on.
var recStart = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// recSeed is a fixed seed: seed i is 32 bytes of i.
func recSeed(i byte) domain.Seed { return domain.Seed(bytes.Repeat([]byte{i}, 32)) }

func recSpec(tb recTable, target int) domain.MatchSpec {
	spec := domain.MatchSpec{Partnerships: tb.partnerships, Target: target}
	for s := range tb.players {
		spec.Players = append(spec.Players, domain.PlayerInfo{Name: fmt.Sprintf("P%d", s), Kind: domain.Human})
	}
	return spec
}

// playOut plays a match through the pure domain, each seat taking the legal move pick chooses,
// until it ends or its log holds at least stop events (0: to the end), and returns the log.
func playOut(t testing.TB, spec domain.MatchSpec, seed domain.Seed, pick func([]domain.LegalMove) domain.LegalMove, stop int) []domain.Event {
	t.Helper()
	log, err := domain.Start(spec, seed, true, recStart)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	m, err := domain.Rebuild("m", seed, log)
	if err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	for !m.Finished() && (stop == 0 || len(log) < stop) {
		seat := m.Turn()
		at := recStart.Add(time.Duration(m.Version()) * time.Second)
		events, err := m.Decide(seat, pick(m.LegalMoves(seat)).Move(), at)
		if err != nil {
			t.Fatalf("decide at version %d: %v", m.Version(), err)
		}
		for _, e := range events {
			if err := m.Apply(e); err != nil {
				t.Fatalf("apply: %v", err)
			}
		}
		log = append(log, events...)
	}
	return log
}

func firstMove(legal []domain.LegalMove) domain.LegalMove { return legal[0] }

func randomMove(rng *rand.Rand) func([]domain.LegalMove) domain.LegalMove {
	return func(legal []domain.LegalMove) domain.LegalMove { return legal[rng.IntN(len(legal))] }
}

// recClock ticks a second on each reading, so every event's time is distinct and repeatable.
type recClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *recClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Second)
	return c.now
}

// recBot takes a random legal move; its randomness is its own, so matches repeat per seed.
type recBot struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func (b *recBot) Choose(_ context.Context, v domain.SeatView) (domain.Move, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return v.LegalMoves[b.rng.IntN(len(v.LegalMoves))].Move(), nil
}

// recService is a MatchService over store with a "random" bot.
func recService(store domain.EventStore, seed uint64) *domain.MatchService {
	return domain.NewMatchService(domain.ServiceConfig{
		Store: store,
		Clock: &recClock{now: recStart},
		Bots:  map[string]domain.Strategy{"random": &recBot{rng: rand.New(rand.NewPCG(seed, 1))}},
	})
}

// recCreate creates a match of the table's shape; humans seats are human, the rest bots.
func recCreate(t testing.TB, svc *domain.MatchService, tb recTable, humans int, target int) domain.Created {
	t.Helper()
	req := domain.CreateRequest{Partnerships: tb.partnerships, Target: target}
	for s := range tb.players {
		p := domain.PlayerInfo{Name: fmt.Sprintf("P%d", s), Kind: domain.Bot, Bot: "random"}
		if s < humans {
			p = domain.PlayerInfo{Name: fmt.Sprintf("P%d", s), Kind: domain.Human}
		}
		req.Players = append(req.Players, p)
	}
	c, err := svc.Create(context.Background(), req)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	return c
}

func TestReplayServiceSteps(t *testing.T) {
	ctx := context.Background()
	svc := recService(memstore.New(), 1)
	live := recCreate(t, svc, recTables[0], 1, 0) // seat 0 human: the match waits for it
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
	svc := recService(memstore.New(), 2)
	live := recCreate(t, svc, recTables[0], 1, 0)
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
	for i, tb := range recTables {
		t.Run(tb.name, func(t *testing.T) {
			// given a finished match of bots
			svc := recService(memstore.New(), uint64(10+i))
			c := recCreate(t, svc, tb, 0, 100)
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
			m, err := domain.Rebuild(c.Match.ID, domain.Seed{}, back.Events)
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
			stored, err := svc.History(ctx, domain.HistoryQuery{})
			if err != nil || len(stored.Matches) != 1 {
				t.Fatalf("history: %v, %d matches", err, len(stored.Matches))
			}
			sameJSON(t, "summary", m.Summary(), stored.Matches[0].Summary)
			// and anyone holding the export can audit it
			for _, ch := range domain.AuditEvents(c.Match.ID, domain.LogRead{Events: back.Events}, domain.Spectator()) {
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
	svc := recService(memstore.New(), 3)
	live := recCreate(t, svc, recTables[0], 1, 0)
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
