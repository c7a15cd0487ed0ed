package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/cmd/allfives/internal/tourncheck"
)

// call sends a request to the test server and decodes a 2XX answer into out.
func call(t *testing.T, method, url, key, body string, out any) []byte {
	t.Helper()
	return apitest.CallOK(t, method, url, key, body, out)
}

// TestTournamentCommandRecomputes: a duplicate Swiss of five bots played on a real server;
// `allfives tournament` recomputes its standings from the exports and they equal the
// server's, and a match export whose score was changed fails.
func TestTournamentCommandRecomputes(t *testing.T) {
	base := apitest.Server(t, 3).URL + "/api/v1"
	var p struct {
		Key string `json:"key"`
	}
	call(t, "POST", base+"/players", "", `{"name": "Organiser"}`, &p)
	var cup struct {
		ID string `json:"id"`
	}
	call(t, "POST", base+"/tournaments", p.Key, `{"name": "Cup", "format": "2p", "system": "swiss", "rounds": 3, "duplicate": true, "target": 60}`, &cup)
	for _, b := range []string{"random", "greedy", "random", "greedy", "random"} {
		call(t, "POST", base+"/tournaments/"+cup.ID+"/entries", p.Key, fmt.Sprintf(`{"bot": %q}`, b), nil)
	}
	call(t, "POST", base+"/tournaments/"+cup.ID+"/start", p.Key, "", nil)
	type view struct {
		Status string `json:"status"`
		Rounds []struct {
			Tables []struct {
				Match string `json:"match"`
			} `json:"tables"`
		} `json:"rounds"`
		Standings []struct {
			Player string  `json:"player"`
			Points float64 `json:"points"`
		} `json:"standings"`
	}
	var v view
	for i := 0; v.Status != "finished"; i++ {
		if i > 3000 {
			t.Fatalf("the tournament never finished: %+v", v)
		}
		time.Sleep(10 * time.Millisecond)
		call(t, "GET", base+"/tournaments/"+cup.ID, "", "", &v)
	}
	dir := t.TempDir()
	files := []string{filepath.Join(dir, "tournament.json")}
	if err := os.WriteFile(files[0], call(t, "GET", base+"/tournaments/"+cup.ID+"/export", "", "", nil), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, r := range v.Rounds {
		for _, tb := range r.Tables {
			name := filepath.Join(dir, tb.Match+".json")
			if err := os.WriteFile(name, call(t, "GET", base+"/matches/"+tb.Match+"/export", "", "", nil), 0o600); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
		}
	}
	var out bytes.Buffer
	if err := run(context.Background(), append([]string{"tournament"}, files...), func(string) string { return "" }, &out); err != nil {
		t.Fatalf("tournament: %v\n%s", err, &out)
	}
	if !strings.Contains(out.String(), "verified: tournament "+cup.ID) {
		t.Fatalf("output:\n%s", &out)
	}
	for i, s := range v.Standings {
		line := fmt.Sprintf("%4d  %-34s %10g", i+1, s.Player, s.Points)
		if !strings.Contains(out.String(), line) {
			t.Fatalf("standing %d (%q) not in the recomputation:\n%s", i+1, line, &out)
		}
	}
	// tourncheck.Recompute, the command's own audit over the exports' bytes in another order,
	// gives the same standings.
	var exports [][]byte
	for _, name := range files[1:] {
		b, _ := os.ReadFile(name)
		exports = append([][]byte{b}, exports...)
	}
	tb, _ := os.ReadFile(files[0])
	rep, err := tourncheck.Recompute(tb, exports...)
	if err != nil || !rep.OK || len(rep.Standings) != len(v.Standings) {
		t.Fatalf("Recompute: %v, ok %v, %d standings, want %d: %+v", err, rep.OK, len(rep.Standings), len(v.Standings), rep.Checks)
	}
	for i, s := range v.Standings {
		if rep.Standings[i].Points != s.Points {
			t.Fatalf("Recompute's standing %d: %+v, the server's %+v", i+1, rep.Standings[i], s)
		}
	}
	// A match export whose final score was changed no longer holds up.
	b, _ := os.ReadFile(files[1])
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	scores := m["match"].(map[string]any)["scores"].([]any)
	scores[0], scores[1] = scores[1], scores[0]
	b, _ = json.Marshal(m)
	if err := os.WriteFile(files[1], b, 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run(context.Background(), append([]string{"tournament"}, files...), func(string) string { return "" }, &out); !errors.Is(err, tourncheck.ErrNotVerified) {
		t.Fatalf("a changed score: %v\n%s", err, &out)
	}
}
