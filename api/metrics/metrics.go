// Package metrics is the server's Prometheus series: requests by route template and status,
// their latency, the moves accepted, and the matches live in memory.
package metrics

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/allfives/allfives/domain/app/referee"
)

// Metrics are the server's Prometheus series. Routes are labelled by their template
// (/api/v1/matches/:id), never by the raw path, to keep the series few.
type Metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	moves    *prometheus.CounterVec
	// series caches the children of requests and latency by their labels: WithLabelValues
	// hashes and looks up the labels, and formats the status, on every request otherwise.
	// The key space is bounded as the labels are (route templates, methodLabel, statuses).
	series sync.Map // seriesKey -> *series
	// byAction caches the children of moves the same way (action -> prometheus.Counter).
	byAction sync.Map
}

type seriesKey struct {
	method, route string
	status        int
}

type series struct {
	requests prometheus.Counter
	latency  prometheus.Observer
}

// New registers the series into reg; svc (nil: none) tells the matches live.
func New(reg *prometheus.Registry, svc *referee.MatchService) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "allfives_http_requests_total",
			Help: "HTTP requests answered, by method, route template and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "allfives_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by method and route template.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"method", "route"}),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "allfives_moves_total",
			Help: "Moves accepted from players over HTTP (retries answered from an Idempotency-Key excluded), by action.",
		}, []string{"action"}),
	}
	live := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "allfives_live_matches",
		Help: "Matches in progress held in the server's memory.",
	}, func() float64 {
		if svc == nil {
			return 0
		}
		return float64(svc.LiveMatches())
	})
	// Registering into a registry New made itself cannot collide; a registry passed in twice
	// is a wiring bug worth stopping on.
	reg.MustRegister(m.requests, m.latency, m.moves, live,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Observe counts one request answered and its latency.
func (m *Metrics) Observe(method, route string, status int, took time.Duration) {
	method = methodLabel(method)
	k := seriesKey{method: method, route: route, status: status}
	v, ok := m.series.Load(k)
	if !ok {
		v, _ = m.series.LoadOrStore(k, &series{
			requests: m.requests.WithLabelValues(method, route, strconv.Itoa(status)),
			latency:  m.latency.WithLabelValues(method, route),
		})
	}
	s := v.(*series)
	s.requests.Inc()
	s.latency.Observe(took.Seconds())
}

// Moved counts one accepted move of the given action.
func (m *Metrics) Moved(action string) {
	v, ok := m.byAction.Load(action)
	if !ok {
		v, _ = m.byAction.LoadOrStore(action, m.moves.WithLabelValues(action))
	}
	v.(prometheus.Counter).Inc()
}

// methodLabel is the method as a label: net/http accepts any token as a method, and a series
// per invented method would let any client grow the metrics without bound.
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "OTHER"
}
