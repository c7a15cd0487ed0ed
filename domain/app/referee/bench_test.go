package referee_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlite"
)

// Run: go test -run '^$' -bench . ./domain/app/referee

// longMatch stores a two-human match of at least n events in a SQLite file, played with the
// first legal move, and returns the store, its id and seat 0's viewer.
func longMatch(b *testing.B, n int) (*sqlite.Store, string, domain.Viewer) {
	b.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{Sync: "off"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store})
	req := twoHumans("")
	req.Target = 1000
	c, err := svc.Create(ctx, req)
	if err != nil {
		b.Fatal(err)
	}
	id := c.Match.ID
	seats := map[int]domain.Viewer{}
	for _, t := range c.Tokens {
		seats[t.Seat], _ = svc.Authenticate(ctx, id, t.Token)
	}
	for {
		v, err := svc.View(ctx, id, domain.Spectator())
		if err != nil {
			b.Fatal(err)
		}
		if v.Version >= n || v.Status != domain.StatusInProgress {
			break
		}
		seat := seats[v.Hand.Turn]
		_, _, moves, err := svc.LegalMoves(ctx, id, seat)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := svc.Act(ctx, id, seat, referee.ActRequest{Move: moves[0].Move()}); err != nil {
			b.Fatal(err)
		}
	}
	return store, id, seats[0]
}

// BenchmarkViewCached is a state read of a match in the cache: the snapshot's view as a seat
// sees it, serially and from every core at once.
func BenchmarkViewCached(b *testing.B) {
	store, id, seat := longMatch(b, 50)
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store})
	ctx := context.Background()
	if _, err := svc.View(ctx, id, seat); err != nil { // load it once
		b.Fatal(err)
	}
	b.Run("serial", func(b *testing.B) {
		for b.Loop() {
			if _, err := svc.View(ctx, id, seat); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := svc.View(ctx, id, seat); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// BenchmarkCacheMiss500 is a state read of a 500-event match that is not in the cache: the
// store's record and events read from SQLite and folded. A cache of one match and a second
// match read in between make every read a miss.
func BenchmarkCacheMiss500(b *testing.B) {
	store, id, seat := longMatch(b, 500)
	ctx := context.Background()
	other, err := referee.NewMatchService(referee.ServiceConfig{Store: store}).Create(ctx, twoHumans(""))
	if err != nil {
		b.Fatal(err)
	}
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, CacheSize: 1})
	b.ReportAllocs()
	for b.Loop() {
		v, err := svc.View(ctx, id, seat)
		if err != nil || v.Version < 500 {
			b.Fatalf("version %d, %v", v.Version, err)
		}
		b.StopTimer()
		if _, err := svc.View(ctx, other.Match.ID, domain.Spectator()); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
