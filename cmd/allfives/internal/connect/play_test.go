package connect

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/bot"
)

// TestChallenge: Ada's connector plays the match Ada made to challenge Bo; Bo's, with
// --accept-challenges, takes the reserved seat and plays it. Both stop after it. Bo is a
// person's player, which its connector warns of.
func TestChallenge(t *testing.T) {
	srv := startServer(t, nil)
	ada, bo := newPlayer(t, srv.URL, "Ada", false), newPlayer(t, srv.URL, "Bo", false)
	var out struct {
		Match struct {
			ID string `json:"id"`
		} `json:"match"`
	}
	call(t, srv.URL, ada.Key, http.MethodPost, "/matches", map[string]any{"players": []map[string]any{
		{"kind": "human", "player": "me"}, {"kind": "human", "player": bo.ID},
	}}, http.StatusCreated, &out)
	a := runConnector(t, Config{Server: srv.URL, Key: ada.Key, Engine: refEngine(t, bot.NameGreedy), Matches: 1})
	b := runConnector(t, Config{Server: srv.URL, Key: bo.Key, Engine: refEngine(t, bot.LevelName(2)), AcceptChallenges: true, Matches: 1})
	for _, c := range []*connector{a, b} {
		if err := c.result(t, 3*time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if status, _ := matchState(t, srv.URL, out.Match.ID); status != "finished" {
		t.Fatalf("the challenge is %s, want finished", status)
	}
	auditOK(t, srv.URL, out.Match.ID)
	if !strings.Contains(b.log.String(), "accepted a challenge") || !strings.Contains(b.log.String(), "not marked as a program") {
		t.Fatalf("Bo's log does not tell of the challenge:\n%s", b.log.String())
	}
}

// TestSmallTournament: three connectors enter a round robin with --tournament; the organiser
// starts it once all three are in, and they play its three matches (two each) to the end.
func TestSmallTournament(t *testing.T) {
	srv := startServer(t, nil)
	org := newPlayer(t, srv.URL, "Org", false)
	var tour struct {
		ID string `json:"id"`
	}
	call(t, srv.URL, org.Key, http.MethodPost, "/tournaments", map[string]any{
		"name": "engines", "format": "2p", "system": "round_robin", "min_entries": 3, "target": 50,
	}, http.StatusCreated, &tour)
	var cs []*connector
	for i, s := range []string{bot.NameGreedy, bot.NameRandom, bot.LevelName(1)} {
		p := newPlayer(t, srv.URL, fmt.Sprintf("Eng%d", i), false)
		cs = append(cs, runConnector(t, Config{Server: srv.URL, Key: p.Key, Engine: refEngine(t, s), Tournament: tour.ID, Matches: 2}))
	}
	var view struct {
		Status  string `json:"status"`
		Entries []any  `json:"entries"`
	}
	waitFor(t, time.Minute, "three entries", func() bool {
		call(t, srv.URL, "", http.MethodGet, "/tournaments/"+tour.ID, nil, http.StatusOK, &view)
		return len(view.Entries) == 3
	})
	call(t, srv.URL, org.Key, http.MethodPost, "/tournaments/"+tour.ID+"/start", nil, http.StatusOK, nil)
	for _, c := range cs {
		if err := c.result(t, 4*time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, time.Minute, "the tournament to finish", func() bool {
		call(t, srv.URL, "", http.MethodGet, "/tournaments/"+tour.ID, nil, http.StatusOK, &view)
		return view.Status == "finished"
	})
}

// TestConnectorKilledAndStartedAgain: a connector process killed with SIGKILL mid-match and
// started again resumes the match and plays it to its end; the match's log is whole.
func TestConnectorKilledAndStartedAgain(t *testing.T) {
	srv := startServer(t, nil)
	ada := newPlayer(t, srv.URL, "Ada", false)
	id := vsBot(t, srv.URL, ada, map[string]any{"target": 250})
	args := func() *exec.Cmd {
		cmd := exec.Command(strings.Fields(self(t))[0], "allfives", "connect", "--server", srv.URL,
			"--engine", self(t)+" slow", "--matches", "1", "--log-level", "debug")
		cmd.Env = append(os.Environ(), "ALLFIVES_KEY="+ada.Key)
		return cmd
	}
	first := args()
	log1 := &apitest.SyncBuffer{}
	first.Stderr = log1
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 2*time.Minute, "the match to be under way", func() bool {
		_, v := matchState(t, srv.URL, id)
		return v >= 12
	})
	if err := first.Process.Kill(); err != nil { // SIGKILL: no chance to tidy up
		t.Fatal(err)
	}
	first.Wait()
	if status, _ := matchState(t, srv.URL, id); status != "in_progress" {
		t.Fatalf("the match is %s before the second connector; the test needs it mid-match", status)
	}
	second := args()
	log2 := &apitest.SyncBuffer{}
	second.Stderr = log2
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- second.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the second connector exited with %v:\n%s", err, log2.String())
		}
	case <-time.After(4 * time.Minute):
		second.Process.Kill()
		t.Fatalf("the second connector did not finish the match:\n%s", log2.String())
	}
	if status, _ := matchState(t, srv.URL, id); status != "finished" {
		t.Fatalf("the match is %s, want finished", status)
	}
	auditOK(t, srv.URL, id)
	if !strings.Contains(log2.String(), "match="+id) {
		t.Fatalf("the second connector's log does not name the match:\n%s", log2.String())
	}
}
