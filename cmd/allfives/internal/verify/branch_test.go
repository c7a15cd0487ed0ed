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

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
	"github.com/allfives/allfives/cmd/allfives/internal/verify"
	"github.com/allfives/allfives/domain/analysis"
)

// serve is the server serve wires (ratings, reviews and limits' wiring on, the limits off),
// over SQLite in t's temporary directory, on a loopback port.
func serve(t *testing.T) string {
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
	return srv.URL
}

// decisionOf is the seq of a decision of the finished match whose export is body, past its
// first hand when it has one there.
func decisionOf(t *testing.T, body []byte) int {
	t.Helper()
	_, events, res, err := verify.Log(body)
	if err != nil || events == nil {
		t.Fatalf("read the export: %v %+v", err, res.Checks)
	}
	rv, err := analysis.Review(t.Context(), events, apitest.SmallReview)
	if err != nil || len(rv.Decisions) == 0 {
		t.Fatalf("review: %v", err)
	}
	for _, d := range rv.Decisions {
		if d.Hand > 1 {
			return d.Seq
		}
	}
	return rv.Decisions[len(rv.Decisions)-1].Seq
}

// playOn branches match id at step with the key given (or none), plays the branch to its end
// with its first legal move each turn, and returns the branch's id and export.
func playOn(t *testing.T, base, id string, step int, key string) (string, []byte) {
	t.Helper()
	var b api.BranchResponse
	doAs(t, base, "POST", "/api/v1/matches/"+id+"/branches", fmt.Sprintf(`{"step": %d, "bot": "greedy"}`, step), key, &b)
	if b.Match.Rated || b.Match.BranchOf == nil || b.Match.BranchOf.Match != id {
		t.Fatalf("the branch: rated %v, branch_of %+v", b.Match.Rated, b.Match.BranchOf)
	}
	path := "/api/v1/matches/" + b.Match.ID
	for range 2000 {
		var v api.MatchView
		doAs(t, base, "GET", path, "", b.Token, &v)
		if v.Status == "finished" {
			return b.Match.ID, doAs(t, base, "GET", path+"/export", "", "", nil)
		}
		mv := v.LegalMoves[0]
		body, _ := json.Marshal(api.MoveRequest{Action: mv.Action, Tile: &mv.Tile, End: &mv.End})
		if mv.Action != "play" {
			body, _ = json.Marshal(api.MoveRequest{Action: mv.Action})
		}
		doAs(t, base, "POST", path+"/moves", string(body), b.Token, nil)
	}
	t.Fatal("the branch did not end")
	return "", nil
}

// TestBranchVerifiesOffline: a branch played to its end, and a branch of it, each verify from
// their one export file (the parent's prefix embedded, its chain ending at the hash the
// branch's match.created names); a changed prefix fails the branch check; a branch with a
// player's key moves no rating of that player.
func TestBranchVerifiesOffline(t *testing.T) {
	base := serve(t)
	var created api.CreateMatchResponse
	doAs(t, base, "POST", "/api/v1/matches", `{"target": 50, "players": [{"name": "Ann", "kind": "bot", "bot": "greedy"}, {"name": "Bob", "kind": "bot", "bot": "random"}]}`, "", &created)
	id := created.Match.ID
	waitFor(t, base, "/api/v1/matches/"+id, "status", "finished")
	parent := doAs(t, base, "GET", "/api/v1/matches/"+id+"/export", "", "", nil)

	var ada api.CreatePlayerResponse
	doAs(t, base, "POST", "/api/v1/players", `{"name": "Ada"}`, "", &ada)
	child, body := playOn(t, base, id, decisionOf(t, parent), ada.Key)
	if res := verify.Export(body); !res.OK() || !hasCheck(res, "branch") {
		t.Fatalf("the branch does not verify: %v", res.Err())
	}
	_, grand := playOn(t, base, child, decisionOf(t, body), "")
	if res := verify.Export(grand); !res.OK() || !hasCheck(res, "branch") {
		t.Fatalf("the branch of a branch does not verify: %v", res.Err())
	}
	changed := strings.Replace(string(body), `"branch_of":{"match":"`+id+`","step":`, `"branch_of":{"match":"`+id+`x","step":`, 1)
	if res := verify.Export([]byte(changed)); res.OK() {
		t.Fatal("a branch whose embedded parent names another match verifies")
	}
	var ratings api.PlayerRatingsResponse
	doAs(t, base, "GET", "/api/v1/players/"+ada.Player.ID+"/ratings", "", "", &ratings)
	if len(ratings.History) != 0 || len(ratings.Ratings) != 0 && ratings.Ratings["2p"].Matches != 0 {
		t.Fatalf("a branch moved a rating: %+v", ratings)
	}
}

// hasCheck says res ran the check named.
func hasCheck(res verify.Result, name string) bool {
	for _, c := range res.Checks {
		if c.Name == name {
			return true
		}
	}
	return false
}

// doAs is do with a bearer credential, when one is given.
func doAs(t *testing.T, base, method, path, body, cred string, out any) []byte {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if cred != "" {
		req.Header.Set("Authorization", "Bearer "+cred)
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
