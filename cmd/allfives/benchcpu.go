package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// errNoCPUMetric is a server whose /metrics has no process_cpu_seconds_total: the collector is
// Linux-only, so elsewhere the bench prints no CPU per move rather than a wrong one.
var errNoCPUMetric = errors.New("no process_cpu_seconds_total in /metrics")

// serverCPU reads the CPU the server process has used so far, from the process collector's
// counter on its /metrics (docs/operations.md, "Metrics"). Reading it through the API keeps the
// bench usable against a server on another host, where its pid means nothing.
func (c *benchClient) serverCPU(ctx context.Context) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", c.base+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, &statusError{Status: resp.StatusCode}
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		v, ok := strings.CutPrefix(sc.Text(), "process_cpu_seconds_total ")
		if !ok {
			continue
		}
		s, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return 0, fmt.Errorf("process_cpu_seconds_total %q: %w", v, err)
		}
		return time.Duration(s * float64(time.Second)), nil
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, errNoCPUMetric
}

// metered wraps a phase so that its result also carries the server CPU spent during it. The
// counter has a resolution of 10 ms (the kernel's clock tick), far below a phase's seconds.
func metered(c *benchClient, run phase) phase {
	return func(ctx context.Context, d time.Duration) (*result, error) {
		before, err := c.serverCPU(ctx)
		if err != nil {
			return nil, err
		}
		r, err := run(ctx, d)
		if err != nil {
			return nil, err
		}
		after, err := c.serverCPU(ctx)
		if err != nil {
			return nil, err
		}
		r.cpu = after - before
		r.metered = true
		return r, nil
	}
}

// cpuPerOp is the server CPU per operation of a metered result.
func (r *result) cpuPerOp() time.Duration {
	if r.ops == 0 {
		return 0
	}
	return r.cpu / time.Duration(r.ops)
}

// cpuRatio is the server CPU per operation of a over that of b: the CPU per move round trip
// over the CPU per /healthz, the ratio the goal bounds (docs/performance.md); 0 when b cost
// nothing measurable.
func cpuRatio(a, b *result) float64 {
	if b.cpuPerOp() <= 0 {
		return 0
	}
	return float64(a.cpuPerOp()) / float64(b.cpuPerOp())
}
