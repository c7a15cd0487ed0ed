// Package refereetest is what the tests of the referee and of the audit share: a
// MatchService over a store with a random computer player, its deals, ids and tokens all
// derived from a seed, and matches of the shapes of package matchtest created on it. It lives
// beside the referee, not in matchtest, so that nothing in domain/ outside domain/app imports a
// service.
package refereetest

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/internal/matchtest"
)

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
		Clock:  NewTickingClock(matchtest.Start, time.Second),
		Random: &lockedReader{r: rand.NewChaCha8(key)},
		Bots:   map[string]domain.Strategy{"random": &randomBot{rng: rand.New(rand.NewPCG(seed, 1))}},
	})
}

// Create creates a match of the given shape; humans seats are human, the rest bots.
func Create(t testing.TB, svc *referee.MatchService, shape matchtest.Shape, humans int, target int) referee.Created {
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
