package matchtest

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// Shape is one shape a match's seats may take (domain.Table; docs/rules.md, "Players and
// sides"), named for subtests.
type Shape struct {
	Name         string
	Players      int
	Partnerships bool
}

// Shapes are the four shapes the rules allow.
var Shapes = []Shape{
	{"two", 2, false}, {"three", 3, false}, {"four alone", 4, false}, {"four partners", 4, true},
}

// Start is the fixed clock's first reading; each event of a played-out match is a second on.
var Start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Seed is a fixed seed: seed i is 32 bytes of i.
func Seed(i byte) domain.Seed { return domain.Seed(bytes.Repeat([]byte{i}, 32)) }

// Spec is a match of the given shape with human seats P0, P1, ...
func Spec(shape Shape, target int) domain.MatchSpec {
	spec := domain.MatchSpec{Partnerships: shape.Partnerships, Target: target}
	for s := range shape.Players {
		spec.Players = append(spec.Players, domain.PlayerInfo{Name: fmt.Sprintf("P%d", s), Kind: domain.Human})
	}
	return spec
}

// PlayOut plays a match through the pure domain, each seat taking the legal move pick chooses,
// until it ends or its log holds at least stop events (0: to the end), and returns the log.
func PlayOut(t testing.TB, spec domain.MatchSpec, seed domain.Seed, pick func([]domain.LegalMove) domain.LegalMove, stop int) []domain.Event {
	t.Helper()
	spec.Seeded = true
	log, err := domain.Start(spec, seed, Start)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	m, err := domain.Resume("m", seed, log)
	if err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	for !m.Finished() && (stop == 0 || len(log) < stop) {
		seat := m.Turn()
		at := Start.Add(time.Duration(m.Version()) * time.Second)
		events, err := m.Act(seat, pick(m.LegalMoves(seat)).Move(), at)
		if err != nil {
			t.Fatalf("move at version %d: %v", m.Version(), err)
		}
		log = append(log, events...)
	}
	return log
}

// FirstMove picks the first legal move listed.
func FirstMove(legal []domain.LegalMove) domain.LegalMove { return legal[0] }

// RandomMove picks a legal move at random from rng.
func RandomMove(rng *rand.Rand) func([]domain.LegalMove) domain.LegalMove {
	return func(legal []domain.LegalMove) domain.LegalMove { return legal[rng.IntN(len(legal))] }
}

// clock ticks a second on each reading, so every event's time is distinct and repeatable.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Second)
	return c.now
}

// randomBot takes a random legal move; its randomness is its own, so matches repeat per seed.
type randomBot struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func (b *randomBot) Choose(_ context.Context, v domain.SeatView) (domain.Move, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return v.LegalMoves[b.rng.IntN(len(v.LegalMoves))].Move(), nil
}

// lockedReader lets concurrent creates share one seeded stream (ChaCha8 is not safe for that).
type lockedReader struct {
	mu sync.Mutex
	r  *rand.ChaCha8
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}

// Service is a MatchService over store with a "random" bot. Its deals, ids and tokens come
// from seed too, so a test sees the same matches on every run (with crypto/rand a rare deal,
// such as a match won in its first hand, made tests fail once in many runs).
func Service(store referee.EventStore, seed uint64) *referee.MatchService {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	return referee.NewMatchService(referee.ServiceConfig{
		Store:  store,
		Clock:  &clock{now: Start},
		Random: &lockedReader{r: rand.NewChaCha8(key)},
		Bots:   map[string]domain.Strategy{"random": &randomBot{rng: rand.New(rand.NewPCG(seed, 1))}},
	})
}

// Create creates a match of the given shape; humans seats are human, the rest bots.
func Create(t testing.TB, svc *referee.MatchService, shape Shape, humans int, target int) referee.Created {
	t.Helper()
	req := referee.CreateRequest{Partnerships: shape.Partnerships, Target: target}
	for s := range shape.Players {
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
