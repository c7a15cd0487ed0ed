package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
)

// TestBinaryEndToEnd is what CI runs of the built binary: `allfives serve` on a fresh SQLite
// file plays, through HTTP, a match of each kind a client reaches (bots only, two humans by
// their tokens, a rated challenge between two players, a match paired by Play now, a resigned
// one, a rematch, a small duplicate tournament of bots), exports each, and the built
// `allfives verify` passes every match's export and `allfives tournament` the tournament's,
// as processes that exit 0.
func TestBinaryEndToEnd(t *testing.T) {
	bin := buildBinary(t)
	srv := startServer(t, bin, filepath.Join(t.TempDir(), "e2e.db"), "--sync", "normal",
		"--sweep-interval", "50ms", "--ratings-interval", "50ms", "--seek-interval", "20ms")
	c := e2eClient{t: t, base: "http://" + srv.addr + "/api/v1"}
	dir := t.TempDir()
	exported := map[string]string{} // file by kind
	export := func(kind, id string) {
		t.Helper()
		name := filepath.Join(dir, strings.ReplaceAll(kind, " ", "-")+".json")
		if err := os.WriteFile(name, c.call("GET", "/matches/"+id+"/export", "", "", nil), 0o600); err != nil {
			t.Fatal(err)
		}
		exported[kind] = name
	}
	target := 30
	human := func(name string) api.PlayerRequest { return api.PlayerRequest{Name: name, Kind: "human"} }
	var created api.CreateMatchResponse

	c.call("POST", "/matches", "", jsonOf(api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{
		{Name: "Ann", Kind: "bot", Bot: "greedy"}, {Name: "Bob", Kind: "bot", Bot: "random"}}}), &created)
	c.waitEnded(created.Match.ID)
	c.review(created.Match.ID)
	export("bots", created.Match.ID)

	c.call("POST", "/matches", "", jsonOf(api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{human("Ann"), human("Bea")}}), &created)
	humans := tokens(created)
	c.playOut(created.Match.ID, humans)
	export("two humans", created.Match.ID)
	var offer, accepted api.RematchResponse
	c.call("POST", "/matches/"+created.Match.ID+"/rematch", humans[0], "", &offer)
	c.call("POST", "/matches/"+created.Match.ID+"/rematch", humans[1], "", &accepted)
	c.playOut(offer.Match.ID, map[int]string{0: *offer.Token, 1: *accepted.Token})
	export("rematch", offer.Match.ID)

	_, adaKey := c.player("Ada")
	bo, boKey := c.player("Bo")
	c.call("POST", "/matches", adaKey, jsonOf(api.CreateMatchRequest{Rated: true, Target: &target, Players: []api.PlayerRequest{
		{Kind: "human", Player: "me"}, {Kind: "human", Player: bo}}}), &created)
	c.call("POST", "/matches/"+created.Match.ID+"/seats/1/join", boKey, "{}", nil)
	c.playOut(created.Match.ID, map[int]string{0: adaKey, 1: boKey})
	export("rated challenge", created.Match.ID)

	c.call("POST", "/matches", "", jsonOf(api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{human("Cy"), human("Dee")}}), &created)
	c.call("POST", "/matches/"+created.Match.ID+"/resign", tokens(created)[1], "", nil)
	c.waitEnded(created.Match.ID)
	export("resigned", created.Match.ID)

	export("seek", c.seekPair(adaKey, boKey, target))
	tournament, matches := c.tournament(adaKey)

	for kind, name := range exported {
		if out, err := exec.Command(bin, "verify", name).CombinedOutput(); err != nil {
			t.Errorf("allfives verify of the %s match: %v\n%s", kind, err, out)
		}
	}
	tfile := filepath.Join(dir, "tournament.json")
	if err := os.WriteFile(tfile, tournament, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"tournament", tfile}
	for i, m := range matches {
		name := filepath.Join(dir, fmt.Sprintf("table-%d.json", i))
		if err := os.WriteFile(name, m, 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, name)
		if out, err := exec.Command(bin, "verify", name).CombinedOutput(); err != nil {
			t.Errorf("allfives verify of the tournament's table %d: %v\n%s", i, err, out)
		}
	}
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil || !strings.Contains(string(out), "verified: tournament") {
		t.Errorf("allfives tournament: %v\n%s", err, out)
	}
}

// seekPair has two players seek a rated two-player match to target through Play now, plays
// the match the matcher makes for them and returns its id.
func (c e2eClient) seekPair(keyA, keyB string, target int) string {
	c.t.Helper()
	body := jsonOf(api.CreateSeekRequest{Format: "2p", Rated: true, Target: target})
	var a, b api.SeekResponse
	c.call("POST", "/seeks", keyA, body, &a)
	c.call("POST", "/seeks", keyB, body, &b)
	for i := 0; a.Seek.Status != "matched" || b.Seek.Status != "matched"; i++ {
		if i > 3000 {
			c.t.Fatalf("the seeks were never paired: %+v %+v", a.Seek, b.Seek)
		}
		time.Sleep(10 * time.Millisecond)
		c.call("GET", "/seeks/"+a.Seek.ID, keyA, "", &a)
		c.call("GET", "/seeks/"+b.Seek.ID, keyB, "", &b)
	}
	if *a.Seek.Match != *b.Seek.Match {
		c.t.Fatalf("the seeks were paired into two matches: %s, %s", *a.Seek.Match, *b.Seek.Match)
	}
	c.playOut(*a.Seek.Match, map[int]string{*a.Seek.Seat: keyA, *b.Seek.Seat: keyB})
	return *a.Seek.Match
}

// tournament has the organiser run a duplicate Swiss of four bots to a short target, and
// returns the tournament's export and its tables' exports once it has finished.
func (c e2eClient) tournament(key string) ([]byte, [][]byte) {
	c.t.Helper()
	var cup struct {
		ID string `json:"id"`
	}
	c.call("POST", "/tournaments", key, `{"name": "E2E Cup", "format": "2p", "system": "swiss", "rounds": 2, "duplicate": true, "target": 30}`, &cup)
	for _, b := range []string{"random", "greedy", "random", "greedy"} {
		c.call("POST", "/tournaments/"+cup.ID+"/entries", key, fmt.Sprintf(`{"bot": %q}`, b), nil)
	}
	c.call("POST", "/tournaments/"+cup.ID+"/start", key, "", nil)
	var v struct {
		Status string `json:"status"`
		Rounds []struct {
			Tables []struct {
				Match string `json:"match"`
			} `json:"tables"`
		} `json:"rounds"`
	}
	for i := 0; v.Status != "finished"; i++ {
		if i > 6000 {
			c.t.Fatalf("the tournament never finished: %+v", v)
		}
		time.Sleep(10 * time.Millisecond)
		c.call("GET", "/tournaments/"+cup.ID, "", "", &v)
	}
	var matches [][]byte
	for _, r := range v.Rounds {
		for _, tb := range r.Tables {
			if tb.Match != "" {
				matches = append(matches, c.call("GET", "/matches/"+tb.Match+"/export", "", "", nil))
			}
		}
	}
	return c.call("GET", "/tournaments/"+cup.ID+"/export", "", "", nil), matches
}
