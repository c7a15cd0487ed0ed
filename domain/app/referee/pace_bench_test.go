package referee_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/memstore"
)

// noting wraps a strategy and notes, for every decision, whether the view left exactly one
// legal move and whether the boneyard still hid tiles. It is not Paced itself.
type noting struct {
	s  domain.Strategy
	mu sync.Mutex
	// decisions since the last take: forced (one legal move) and hidden (boneyard > 0).
	decisions []struct{ forced, hidden bool }
}

func (n *noting) Choose(ctx context.Context, v domain.SeatView) (domain.Move, error) {
	n.mu.Lock()
	n.decisions = append(n.decisions, struct{ forced, hidden bool }{len(v.LegalMoves) == 1, v.Boneyard > 0})
	n.mu.Unlock()
	return n.s.Choose(ctx, v)
}

// take returns the decisions noted since the last take.
func (n *noting) take() []struct{ forced, hidden bool } {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.decisions
	n.decisions = nil
	return out
}

// pacedNoting is noting that passes on its strategy's floor: it is Paced when the strategy is.
type pacedNoting struct {
	*noting
	p domain.Paced
}

func (n pacedNoting) MinDecision() time.Duration { return n.p.MinDecision() }

// BenchmarkExpertActForcedVsChoice shows the pacing end to end: a human plays the first legal
// move (through Act, memstore, the real pause) against an expert at two players, and each move
// is timed until the expert's reply is stored (paced, that is after Act answered). Acts in which the expert made exactly one decision, with the boneyard still hiding
// tiles, are reported apart: those whose decision was forced (one legal move) and those with a
// real choice, each with its median and 99th percentile in milliseconds and how many there
// were. "unpaced" hides the expert's floor from the referee, as before pacing; "paced" does
// not. The figures of (docs/api-matches.md, "Timing") come from -benchtime 600x -cpu 1.
func BenchmarkExpertActForcedVsChoice(b *testing.B) {
	for _, pace := range []bool{false, true} {
		b.Run(map[bool]string{false: "unpaced", true: "paced"}[pace], func(b *testing.B) {
			ctx := context.Background()
			x := bot.NewExpert(1, bot.DefaultRollouts)
			rec := &noting{s: x}
			var strategy domain.Strategy = rec
			if pace {
				strategy = pacedNoting{noting: rec, p: x}
			}
			svc := referee.NewMatchService(referee.ServiceConfig{
				Store: memstore.New(), Bots: map[string]domain.Strategy{"expert": strategy},
			})
			var id string
			var human domain.Viewer
			var forced, choice []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				var view domain.MatchView
				if id != "" {
					var err error
					if view, err = svc.View(ctx, id, human); err != nil {
						b.Fatal(err)
					}
				}
				if id == "" || view.Status == domain.StatusFinished {
					c, err := svc.Create(ctx, referee.CreateRequest{Players: []domain.PlayerInfo{
						{Name: "ann", Kind: domain.Human}, {Name: "ada", Kind: domain.Bot, Bot: "expert"},
					}})
					if err != nil {
						b.Fatal(err)
					}
					id = c.Match.ID
					if human, err = svc.Authenticate(ctx, id, c.Tokens[0].Token); err != nil {
						b.Fatal(err)
					}
					if err := svc.WaitBots(ctx); err != nil { // a paced bot may lead
						b.Fatal(err)
					}
					if view, err = svc.View(ctx, id, human); err != nil {
						b.Fatal(err)
					}
				}
				rec.take()
				b.StartTimer()
				start := time.Now()
				if _, err := svc.Act(ctx, id, human, referee.ActRequest{Move: view.LegalMoves[0].Move()}); err != nil {
					b.Fatal(err)
				}
				// Paced, the reply is stored after the answer: the time is until it is.
				if err := svc.WaitBots(ctx); err != nil {
					b.Fatal(err)
				}
				took := time.Since(start)
				if d := rec.take(); len(d) == 1 && d[0].hidden {
					if d[0].forced {
						forced = append(forced, took)
					} else {
						choice = append(choice, took)
					}
				}
			}
			b.StopTimer()
			reportActQuantiles(b, "forced", forced)
			reportActQuantiles(b, "choice", choice)
		})
	}
}

// reportActQuantiles adds the count, median and 99th percentile of ds, in milliseconds, to the
// benchmark's line, each metric's unit prefixed with what.
func reportActQuantiles(b *testing.B, what string, ds []time.Duration) {
	b.ReportMetric(float64(len(ds)), what+"-n")
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	for _, q := range []struct {
		unit string
		p    float64
	}{{"-p50-ms", 0.5}, {"-p99-ms", 0.99}} {
		d := ds[int(q.p*float64(len(ds)-1))]
		b.ReportMetric(float64(d)/float64(time.Millisecond), what+q.unit)
	}
}
