package api_test

import (
	"context"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// BenchmarkStreamsAtCap opens 3,000 streams on one live match against a cap of 1,000, over
// loopback, then measures /healthz and the watched match's moves (each waking 1,000 streams),
// and the heap once the streams close. Run:
// go test -bench StreamsAtCap -run '^$' -benchtime 1x ./api
func BenchmarkStreamsAtCap(b *testing.B) {
	for range b.N {
		h := newHarness(b, apitest.WithoutPlayers(), apitest.ServerConfig(func(c *api.Config) { c.MaxStreams, c.MaxStreamsPerClient = 1000, 5000 }), apitest.Live(nil))
		srv := h.Server
		tb := h.create(seed1, false, "human", "human")
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		ctx, cancel := context.WithCancel(context.Background())
		client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		var opened, refused atomic.Int64
		var wg sync.WaitGroup
		for range 3000 {
			wg.Go(func() {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+tb.path("/stream"), nil)
				res, err := client.Do(req)
				if err != nil {
					return
				}
				if res.StatusCode == http.StatusOK {
					opened.Add(1)
					go func() {
						defer res.Body.Close()
						buf := make([]byte, 4096)
						for {
							if _, err := res.Body.Read(buf); err != nil {
								return
							}
						}
					}()
					return
				}
				refused.Add(1)
				res.Body.Close()
			})
		}
		wg.Wait()
		var health, moves []time.Duration
		for range 50 {
			start := time.Now()
			if res, err := http.Get(srv.URL + "/healthz"); err == nil {
				res.Body.Close()
			}
			health = append(health, time.Since(start))
		}
		for i := range 10 {
			seat := tb.view(-1).Hand.Turn
			lm := tb.legal(seat).LegalMoves
			start := time.Now()
			tb.mustMove(seat, asMove(pick(lm, i)))
			moves = append(moves, time.Since(start))
		}
		during := runtime.NumGoroutine()
		cancel()
		srv.CloseClientConnections()
		srv.Close()
		time.Sleep(time.Second)
		runtime.GC() // twice: the first only moves sync.Pool buffers to the victim cache
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		slices.Sort(health)
		slices.Sort(moves)
		b.ReportMetric(float64(opened.Load()), "opened")
		b.ReportMetric(float64(during), "goroutines-open")
		b.ReportMetric(float64(refused.Load()), "refused")
		b.ReportMetric(float64(health[len(health)*99/100].Microseconds())/1000, "healthz-p99-ms")
		b.ReportMetric(float64(moves[len(moves)/2].Microseconds())/1000, "move-median-ms")
		b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20), "heap-growth-MiB")
		b.ReportMetric(float64(runtime.NumGoroutine()), "goroutines-after")
	}
}
