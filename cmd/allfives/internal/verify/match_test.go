package verify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
	"github.com/allfives/allfives/cmd/allfives/internal/verify"
)

// reviewedExport plays a match of bots on the server serve wires (reviews on, a small
// budget), reviews it, and returns its export once the review is done.
func reviewedExport(t *testing.T) []byte {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.DB, cfg.Sync, cfg.Limits = filepath.Join(t.TempDir(), "allfives.db"), "normal", server.Limits{}
	cfg.BotSeed, cfg.Review = 5, apitest.SmallReview
	s, err := server.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	srv := httptest.NewServer(s.Handler)
	t.Cleanup(srv.Close)
	var created struct {
		Match struct {
			ID string `json:"id"`
		} `json:"match"`
	}
	do(t, srv.URL, "POST", "/api/v1/matches", `{"target": 30, "players": [{"name": "Ann", "kind": "bot", "bot": "greedy"}, {"name": "Bob", "kind": "bot", "bot": "random"}]}`, &created)
	id := created.Match.ID
	waitFor(t, srv.URL, "/api/v1/matches/"+id, "status", "finished")
	do(t, srv.URL, "POST", "/api/v1/matches/"+id+"/review", "", nil)
	waitFor(t, srv.URL, "/api/v1/matches/"+id, "review", "done")
	return do(t, srv.URL, "GET", "/api/v1/matches/"+id+"/export", "", nil)
}

// do sends a request and decodes a 2XX answer into out.
func do(t *testing.T, base, method, path, body string, out any) []byte {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// waitFor reads path until its field says want.
func waitFor(t *testing.T, base, path, field, want string) {
	t.Helper()
	for range 3000 {
		var v map[string]any
		do(t, base, "GET", path, "", &v)
		if v[field] == want {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never had %s %q", path, field, want)
}

// edit changes the export's match with fn and returns the export.
func edit(t *testing.T, body []byte, fn func(m map[string]any)) []byte {
	t.Helper()
	var e map[string]any
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatal(err)
	}
	fn(e["match"].(map[string]any))
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// matchDetail is the match check's result.
func matchDetail(t *testing.T, res verify.Result) verify.Check {
	t.Helper()
	for _, c := range res.Checks {
		if c.Name == "match" {
			return c
		}
	}
	t.Fatalf("no match check: %+v", res.Checks)
	return verify.Check{}
}

// TestVerifyReviewedMatch: the export of a reviewed match verifies, and so does one whose view
// carries a field the events do not determine; a field the events determine that differs is
// named, with what the export says and what the events give.
func TestVerifyReviewedMatch(t *testing.T) {
	body := reviewedExport(t)
	if !strings.Contains(string(body), `"review":"done"`) {
		t.Fatalf("the export does not say its review is done: %.300s", body)
	}
	res := verify.Export(body)
	if err := res.Err(); err != nil {
		t.Fatalf("the export of a reviewed match: %v", err)
	}
	if c := matchDetail(t, res); !strings.HasSuffix(c.Detail, "; not from the events, so not compared: review") {
		t.Errorf("the match check does not say what it left out: %q", c.Detail)
	}
	extra := edit(t, body, func(m map[string]any) {
		m["next_match_id"], m["rating_changes"] = "m-later", []any{map[string]any{"seat": 0}}
		m["a_field_added_later"] = map[string]any{"x": 1}
		m["seats"].([]any)[0].(map[string]any)["online"] = true
	})
	if err := verify.Export(extra).Err(); err != nil {
		t.Fatalf("fields the events do not determine: %v", err)
	}
	var scores []int
	var e struct {
		Match struct {
			Scores []int `json:"scores"`
		} `json:"match"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatal(err)
	}
	scores = e.Match.Scores
	for _, c := range []struct {
		name string
		fn   func(m map[string]any)
		want string
	}{
		{"a score", func(m map[string]any) { m["scores"].([]any)[1] = scores[1] + 5 },
			fmt.Sprintf("match.scores[1]: the export says %d, the events give %d", scores[1]+5, scores[1])},
		{"a seat's name", func(m map[string]any) { m["seats"].([]any)[0].(map[string]any)["name"] = "Eve" },
			`match.seats[0].name: the export says "Eve", the events give "Ann"`},
		{"the winner left out", func(m map[string]any) { delete(m, "winner_side") },
			"match.winner_side: the export has none, the events give "},
		{"a rating claimed", func(m map[string]any) { m["rated"] = true },
			"match.rated: the export says true, the events give none"},
		{"a seat more", func(m map[string]any) { m["seats"] = append(m["seats"].([]any), m["seats"].([]any)[0]) },
			"match.seats: the export has 3 items, the events give 2"},
		{"the status", func(m map[string]any) { m["status"] = "cancelled" },
			`match.status: the export says "cancelled", the events give "finished"`},
	} {
		res := verify.Export(edit(t, body, c.fn))
		got := matchDetail(t, res)
		if got.OK || res.OK() || !strings.Contains(got.Detail, c.want) {
			t.Errorf("%s: the match check says %v %q, want it to fail naming %q", c.name, got.OK, got.Detail, c.want)
		}
	}
}
