package api_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// accessLines counts the access-log lines at info and above by status.
func accessLines(t *testing.T, s *apitest.SyncBuffer) map[int]int {
	out := map[int]int{}
	for line := range bytes.Lines([]byte(s.String())) {
		var l struct {
			Msg       string
			Status    int
			RequestID string `json:"request_id"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if l.Msg == "request" {
			if l.RequestID == "" {
				t.Errorf("an access line without its request id: %s", line)
			}
			out[l.Status]++
		}
	}
	return out
}

// TestAccessLogSamplesFastSuccesses: with AccessSample 10, one in ten fast successful reads
// reaches the log at info, and every error does.
func TestAccessLogSamplesFastSuccesses(t *testing.T) {
	var sink apitest.SyncBuffer
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServerConfig(func(c *api.Config) {
		c.Logger = slog.New(slog.NewJSONHandler(&sink, nil))
		c.AccessSample = 10
	}))
	m := h.create("", false, "human", "random")
	before := accessLines(t, &sink)[http.StatusOK]
	for range 40 {
		if r := h.do("GET", "/api/v1/matches/"+m.id, nil); r.status != http.StatusOK {
			t.Fatalf("state: %d", r.status)
		}
	}
	for range 5 {
		if r := h.do("GET", "/api/v1/matches/nope", nil); r.status != http.StatusNotFound {
			t.Fatalf("missing match: %d", r.status)
		}
	}
	lines := accessLines(t, &sink)
	if got := lines[http.StatusOK] - before; got != 4 {
		t.Errorf("%d of 40 fast successes logged, want 4", got)
	}
	if lines[http.StatusNotFound] != 5 {
		t.Errorf("%d of 5 not-found answers logged, want every one", lines[http.StatusNotFound])
	}
}
