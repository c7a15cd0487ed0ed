package storetest

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/openskill"
)

// BenchRatingUpdate measures the projection's cost per match, its write included: n rated
// matches of bots are stored once; each iteration takes every rating back (a rewind to the
// start, untimed) and rates all n again, a batch per transaction, reading each result from its
// log as the live projection does. It reports ns/match.
func BenchRatingUpdate(b *testing.B, s RatingsStore, n int) {
	ctx := context.Background()
	svc := referee.NewMatchService(referee.ServiceConfig{Store: s, Bots: fastBots(9)})
	defer svc.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	for range n {
		names := slices.Clone(bot.Names())
		rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		seats := 2 + rng.IntN(3)
		var players []domain.PlayerInfo
		for i, name := range names[:seats] {
			players = append(players, domain.PlayerInfo{Name: fmt.Sprintf("b%d", i), Kind: domain.Bot, Bot: name})
		}
		if _, err := svc.Create(ctx, referee.CreateRequest{Players: players, Target: 50, Rated: true, Partnerships: seats == 4 && rng.IntN(2) == 0}); err != nil {
			b.Fatal(err)
		}
	}
	proj := ratings.NewProjector(ratings.Config{Store: s, Logs: s})
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		if _, err := s.Project(ctx, func(tx ratings.Tx) error {
			all, err := s.AllStandings(ctx)
			if err != nil {
				return err
			}
			return tx.Rewind(ctx, ratings.Key{}, nil, all)
		}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		done, err := proj.Drain(ctx)
		if err != nil || done != n {
			b.Fatalf("rated %d of %d: %v", done, n, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/match")
}

// FillLeaderboard writes n ranked standings of format into s (and none of any other): the
// leaderboard of n rated players.
func FillLeaderboard(tb testing.TB, s RatingsStore, format ratings.Format, n int) []ratings.Standing {
	rng := rand.New(rand.NewPCG(3, 4))
	out := make([]ratings.Standing, n)
	for i := range out {
		out[i] = ratings.Standing{
			Player: fmt.Sprintf("%032x", rng.Uint64()), Format: format,
			Rating:  openskill.Rating{Mu: 10 + 30*rng.Float64(), Sigma: 1 + 4*rng.Float64()},
			Matches: 10 + rng.IntN(500),
		}
		out[i].Wins = rng.IntN(out[i].Matches)
	}
	if err := s.Replace(context.Background(), nil, nil, out); err != nil {
		tb.Fatal(err)
	}
	slices.SortFunc(out, func(a, b ratings.Standing) int { // highest first
		return cmp.Or(cmp.Compare(b.Ordinal(), a.Ordinal()), cmp.Compare(b.Player, a.Player))
	})
	return out
}

// BenchLeaderboard measures a page of 20 of a leaderboard of n ranked players: the first
// page (deep false) or one starting at the 90th percentile (deep true), through the service.
func BenchLeaderboard(b *testing.B, s RatingsStore, sorted []ratings.Standing, deep bool) {
	ctx := context.Background()
	svc := ratings.NewService(s)
	cursor := ""
	if deep {
		// Walk to the page: pages of 100 until 90% of the board is behind.
		for seen := 0; seen < len(sorted)*9/10; seen += 100 {
			board, err := svc.Leaderboard(ctx, sorted[0].Format, ratings.AllPlayers, cursor, 100)
			if err != nil || board.NextCursor == "" {
				b.Fatalf("walking the board at %d: %v", seen, err)
			}
			cursor = board.NextCursor
		}
	}
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		board, err := svc.Leaderboard(ctx, sorted[0].Format, ratings.AllPlayers, cursor, 20)
		if err != nil || len(board.Rows) != 20 {
			b.Fatalf("page: %d rows, %v", len(board.Rows), err)
		}
		if !deep && board.Rows[0].Player != sorted[0].Player {
			b.Fatalf("the first row is %s, want %s", board.Rows[0].Player, sorted[0].Player)
		}
		if deep && board.Rows[0].Rank < len(sorted)*9/10 {
			b.Fatalf("the deep page starts at rank %d", board.Rows[0].Rank)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N)/1000, "ms/page")
}
