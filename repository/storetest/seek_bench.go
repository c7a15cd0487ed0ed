package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/matchmaking"
)

// SeekStore is what Play now needs of a store.
type SeekStore interface {
	referee.EventStore
	players.Store
	ratings.Store
	seeks.Store
}

// BenchSeekLatency measures, with 1,000 seeks searching (each alone in its pool: a target
// and format of its own, so none pairs), the time from a compatible seek's create to the end
// of the matcher pass that matched it: the create, one pass over the 1,000 (read, decide,
// claim), the match's create (bound, dealt) and the settlement. It reports p50 and p99 in ms.
func BenchSeekLatency(b *testing.B, store SeekStore) {
	ctx := context.Background()
	people := players.NewService(players.Config{Store: store})
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(7), Players: people})
	b.Cleanup(svc.Close)
	sk := seeks.New(seeks.Config{Store: store, Matches: svc, Keys: people, Standings: store, Rule: matchmaking.Rule{Window: 2, Growth: 1, MaxWindow: 15}}) // no bots: a lone seek stays alone
	made := 0
	player := func() string {
		made++
		c, err := people.Create(ctx, fmt.Sprintf("Bench %05d", made))
		if err != nil {
			b.Fatal(err)
		}
		return c.Key
	}
	type pool struct {
		format string
		rated  bool
		target int
	}
	var pools []pool
	for target := 5; len(pools) < 1000; target += 5 {
		for _, f := range []string{"2p", "3p", "4p", "2v2"} {
			for _, rated := range []bool{true, false} {
				pools = append(pools, pool{f, rated, target})
			}
		}
	}
	pools = pools[:1000]
	for _, p := range pools {
		if _, err := sk.Create(ctx, player(), seeks.Request{Format: p.format, Rated: p.rated, Target: p.target}); err != nil {
			b.Fatal(err)
		}
	}
	if n, err := sk.PairOnce(ctx); err != nil || n != 0 {
		b.Fatalf("the lone seeks paired: %d %v", n, err)
	}
	var twoSeats []pool
	for _, p := range pools {
		if p.format == "2p" {
			twoSeats = append(twoSeats, p)
		}
	}
	var took []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := twoSeats[i%len(twoSeats)]
		b.StopTimer()
		key := player()
		b.StartTimer()
		start := time.Now()
		if _, err := sk.Create(ctx, key, seeks.Request{Format: p.format, Rated: p.rated, Target: p.target}); err != nil {
			b.Fatal(err)
		}
		n, err := sk.PairOnce(ctx)
		if err != nil || n != 1 {
			b.Fatalf("pass made %d matches: %v", n, err)
		}
		took = append(took, time.Since(start))
		b.StopTimer()
		// Another seek alone in the pool, for the next time it is used.
		if _, err := sk.Create(ctx, player(), seeks.Request{Format: p.format, Rated: p.rated, Target: p.target}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	slices.Sort(took)
	at := func(q float64) float64 { return float64(took[int(q*float64(len(took)-1))].Microseconds()) / 1000 }
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}
