package referee_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/referee/refereetest"
	"github.com/allfives/allfives/repository/memstore"
)

// counting is firstLegal that counts its decisions; it is not Paced.
type counting struct {
	decisions atomic.Int64
	onChoose  func() // called in every decision when set
}

func (c *counting) Choose(_ context.Context, v domain.SeatView) (domain.Move, error) {
	c.decisions.Add(1)
	if c.onChoose != nil {
		c.onChoose()
	}
	return v.LegalMoves[0].Move(), nil
}

// paced is counting with a floor: a Paced strategy.
type paced struct {
	counting
	floor atomic.Int64 // nanoseconds
}

func newPaced(floor time.Duration) *paced {
	p := &paced{}
	p.floor.Store(int64(floor))
	return p
}

func (p *paced) MinDecision() time.Duration { return time.Duration(p.floor.Load()) }

// pauses records what the service asks to wait, and waits for nothing.
type pauses struct {
	mu sync.Mutex
	ds []time.Duration
}

func (p *pauses) pause(ctx context.Context, d time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ds = append(p.ds, d)
	return ctx.Err()
}

func (p *pauses) taken() []time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Duration(nil), p.ds...)
}

func (p *pauses) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ds = nil
}

// floor is long enough that no decision of the fakes ever outlasts it, so every pause the
// service asks for is positive; the recorder waits for none of it.
const floor = time.Hour

// actFirstLegal plays the first legal move for viewer v whenever it is v's turn, up to n
// moves or the match's end, waiting after each for the bots' turns played after the answer.
func actFirstLegal(t *testing.T, svc *referee.MatchService, id string, v domain.Viewer, n int) {
	t.Helper()
	ctx := context.Background()
	for range n {
		if err := svc.WaitBots(ctx); err != nil {
			t.Fatal(err)
		}
		view, err := svc.View(ctx, id, v)
		if err != nil {
			t.Fatal(err)
		}
		if view.Status == domain.StatusFinished || len(view.LegalMoves) == 0 {
			return
		}
		if _, err := svc.Act(ctx, id, v, referee.ActRequest{Move: view.LegalMoves[0].Move()}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPacedBotsAreHeldToTheirFloor: given a match and strategies that count their decisions,
// when it is played, then the service asks to pause once per decision of a Paced bot in a
// match with a human, each time for between 0 and the floor, and never for a strategy that is
// not Paced, a match of bots only (inside Create or in the bot pool), or a seat on autoplay.
func TestPacedBotsAreHeldToTheirFloor(t *testing.T) {
	human := func(name string) domain.PlayerInfo { return domain.PlayerInfo{Name: name, Kind: domain.Human} }
	robot := func(name, strategy string) domain.PlayerInfo {
		return domain.PlayerInfo{Name: name, Kind: domain.Bot, Bot: strategy}
	}
	for name, c := range map[string]struct {
		players []domain.PlayerInfo
		workers int // the bot pool's
		clock   bool
		// when plays the match on from its creation.
		when func(t *testing.T, svc *referee.MatchService, c referee.Created, clock *refereetest.Clock)
		// paused says which strategy's decisions must each have had one pause: "paced", or ""
		// for none at all.
		paused string
	}{
		"a paced bot answering a human": {
			players: []domain.PlayerInfo{human("ann"), robot("robo", "paced")},
			when: func(t *testing.T, svc *referee.MatchService, c referee.Created, _ *refereetest.Clock) {
				actFirstLegal(t, svc, c.Match.ID, seatOf(t, svc, c.Match.ID, c.Tokens[0].Token), 30)
			},
			paused: "paced",
		},
		"a bot that is not paced answering a human": {
			players: []domain.PlayerInfo{human("ann"), robot("robo", "counting")},
			when: func(t *testing.T, svc *referee.MatchService, c referee.Created, _ *refereetest.Clock) {
				actFirstLegal(t, svc, c.Match.ID, seatOf(t, svc, c.Match.ID, c.Tokens[0].Token), 30)
			},
		},
		"paced bots only, played inside create": {
			players: []domain.PlayerInfo{robot("a", "paced"), robot("b", "paced"), robot("c", "paced")},
		},
		"paced bots only, played by the bot pool": {
			players: []domain.PlayerInfo{robot("a", "paced"), robot("b", "paced")},
			workers: 1,
			when: func(t *testing.T, svc *referee.MatchService, _ referee.Created, _ *refereetest.Clock) {
				if err := svc.WaitBots(context.Background()); err != nil {
					t.Fatal(err)
				}
			},
		},
		"a human's seat on autoplay beside a paced bot": {
			players: []domain.PlayerInfo{human("ann"), human("bob"), robot("robo", "paced")},
			clock:   true,
			// The human to move times out and goes on autoplay (played by "greedy", here a
			// Paced fake); the other human plays on, and the autoplayed seat moves inside
			// their requests.
			when: func(t *testing.T, svc *referee.MatchService, c referee.Created, clock *refereetest.Clock) {
				ctx := context.Background()
				id := c.Match.ID
				view, err := svc.View(ctx, id, domain.Spectator())
				if err != nil || view.Turn == nil || *view.Turn > 1 {
					t.Fatalf("a human must be to move: %+v %v", view.Turn, err)
				}
				mover := *view.Turn
				clock.Advance(30 * time.Second)
				if n, err := svc.Sweep(ctx); err != nil || n != 1 {
					t.Fatalf("sweep: %d %v", n, err)
				}
				other := 1 - mover
				actFirstLegal(t, svc, id, seatOf(t, svc, id, c.Tokens[other].Token), 30)
			},
			paused: "paced",
		},
	} {
		t.Run(name, func(t *testing.T) {
			// Given
			strategies := map[string]*counting{}
			pacedBot, greedy, plain := newPaced(floor), newPaced(floor), &counting{}
			strategies["paced"], strategies[domain.AutoplayBot], strategies["counting"] = &pacedBot.counting, &greedy.counting, plain
			rec := &pauses{}
			clock := refereetest.NewClock(time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC))
			cfg := referee.ServiceConfig{
				Store: memstore.New(), Clock: clock, CacheSize: 16, BotWorkers: c.workers, Pause: rec.pause,
				Bots: map[string]domain.Strategy{"paced": pacedBot, domain.AutoplayBot: greedy, "counting": plain},
			}
			svc := referee.NewMatchService(cfg)
			t.Cleanup(svc.Close)
			req := referee.CreateRequest{Players: c.players, Seed: vectorSeed}
			if c.clock {
				req.TurnSeconds, req.AutoplayAfter = 30, 1
			}
			created := create(t, svc, req)
			if c.when != nil {
				// With a bot pool, creation decides nothing and the pool may have played the
				// whole match already: everything from creation on counts.
				if c.workers == 0 {
					rec.reset()
					for _, s := range strategies {
						s.decisions.Store(0)
					}
				}
				// When
				c.when(t, svc, created, clock)
			}
			// Then
			got := rec.taken()
			for _, d := range got {
				if d < 0 || d > floor {
					t.Errorf("asked to pause %v, want between 0 and the floor %v", d, floor)
				}
			}
			decided := int64(0)
			for _, s := range strategies {
				decided += s.decisions.Load()
			}
			if decided == 0 {
				t.Fatal("no bot decided anything: the case tests nothing")
			}
			want := int64(0)
			if c.paused != "" {
				want = strategies[c.paused].decisions.Load()
				if want == 0 {
					t.Fatalf("%s never decided: the case tests nothing", c.paused)
				}
			}
			if int64(len(got)) != want {
				t.Errorf("%d pauses for %d decisions (%d by %q), want %d", len(got), decided, want, c.paused, want)
			}
			if c.clock && greedy.decisions.Load() == 0 {
				t.Error("the seat on autoplay never moved: the case tests nothing")
			}
		})
	}
}
