package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/referee"
)

// BenchmarkBotOnlyCreate measures, over loopback HTTP, 40 matches of four expert bots to 1000
// created at once with a bot pool of one worker per CPU: how long the slowest create takes to
// answer, and /healthz's 99th percentile while the pool is busy (polled every 5 ms for the
// creates and 2 s after). The matches are left to the pool, which stops with the benchmark.
// Run: go test -bench BotOnlyCreate -run '^$' -benchtime 3x ./api
func BenchmarkBotOnlyCreate(b *testing.B) {
	body, err := json.Marshal(botOnlyRequest(1000, "expert", "expert", "expert", "expert"))
	if err != nil {
		b.Fatal(err)
	}
	var createMax, health99, afterCreates []float64
	for range b.N {
		h := newHarness(b, apitest.WithoutPlayers(), apitest.ServiceConfig(func(c *referee.ServiceConfig) { c.BotWorkers = referee.DefaultBotWorkers() }), apitest.Live(nil))
		srv := h.Server
		stop := make(chan struct{})
		var (
			mu     sync.Mutex
			health []time.Duration
			hw     sync.WaitGroup
		)
		hw.Go(func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
				start := time.Now()
				res, err := http.Get(srv.URL + "/healthz")
				if err == nil {
					res.Body.Close()
				}
				mu.Lock()
				health = append(health, time.Since(start))
				mu.Unlock()
			}
		})
		took := make([]time.Duration, 40)
		var wg sync.WaitGroup
		for i := range took {
			wg.Go(func() {
				start := time.Now()
				res, err := http.Post(srv.URL+"/api/v1/matches", "application/json", bytes.NewReader(body))
				if err != nil || res.StatusCode != http.StatusCreated {
					b.Errorf("create: %v %v", err, res)
					return
				}
				res.Body.Close()
				took[i] = time.Since(start)
			})
		}
		wg.Wait()
		mu.Lock()
		created := len(health)
		mu.Unlock()
		time.Sleep(2 * time.Second)
		close(stop)
		hw.Wait()
		srv.Close()
		h.svc.Close()
		after := slices.Clone(health[created:])
		slices.Sort(after)
		if len(after) > 0 {
			afterCreates = append(afterCreates, float64(after[len(after)*99/100].Microseconds())/1000)
		}
		slices.Sort(health)
		createMax = append(createMax, float64(slices.Max(took).Microseconds())/1000)
		if len(health) > 0 {
			health99 = append(health99, float64(health[len(health)*99/100].Microseconds())/1000)
		}
	}
	b.ReportMetric(slices.Max(createMax), "create-max-ms")
	if len(health99) > 0 {
		b.ReportMetric(slices.Max(health99), "healthz-p99-ms")
	}
	if len(afterCreates) > 0 {
		b.ReportMetric(slices.Max(afterCreates), "healthz-p99-after-creates-ms")
	}
}
