package api_test

import (
	"net/http"
	"testing"

	"github.com/allfives/allfives/api"
)

// TestSealedDuplicateMatchLeaksNothing: four players in a duplicate round; table 1 ends (a
// resignation) while table 2 still plays the same cards. Until table 2 ends, table 1's match
// shows no hand, draw or seed to anyone: its spectators, table 2's players among them, are
// refused its log on every route, and its own seats read it as if it were live. Once the
// round ends, everything opens and the seed is the round's.
func TestSealedDuplicateMatchLeaksNothing(t *testing.T) {
	c := newCup(t)
	keys := map[string]string{}
	var orgKey string
	for i, name := range []string{"Ann", "Ben", "Cat", "Dan"} {
		id, key := c.player(name)
		keys[id] = key
		if i == 0 {
			orgKey = key
		}
	}
	id := c.createTournament(orgKey, api.CreateTournamentRequest{Name: "Sealed", Format: "2p", System: "swiss", Rounds: 1, Duplicate: true, TurnSeconds: 600})
	for _, k := range keys {
		c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+id+"/entries", k, nil, nil)
	}
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/start", orgKey, nil, nil)
	v := c.waitFor(id, "dealt", func(v api.TournamentView) bool {
		return len(v.Rounds) == 1 && v.Rounds[0].Tables[0].Match != "" && v.Rounds[0].Tables[1].Match != ""
	})
	one, two := v.Rounds[0].Tables[0], v.Rounds[0].Tables[1]
	c.must(http.StatusOK, "POST", "/api/v1/matches/"+one.Match+"/resign", keys[one.Seats[0].Player], nil, nil)
	var ended struct {
		Status string `json:"status"`
	}
	c.must(http.StatusOK, "GET", "/api/v1/matches/"+one.Match, keys[one.Seats[1].Player], nil, &ended)
	if ended.Status != "finished" {
		t.Fatalf("table 1 after the resignation: %s", ended.Status)
	}

	var seen [][]byte // every answer about table 1 while sealed
	record := func(b []byte) { seen = append(seen, append([]byte(nil), b...)) }
	m := "/api/v1/matches/" + one.Match
	// A key holds no seat of another table: table 2's players are refused as anyone is.
	for _, path := range []string{m, m + "/events", m + "/export", m + "/replay?step=2"} {
		code, b := c.call("GET", path, keys[two.Seats[0].Player], nil)
		record(b)
		if code != http.StatusConflict || !contains(b, "MATCH_SEALED") {
			t.Fatalf("table 2's key GET %s: %d %s", path, code, b)
		}
	}
	// Nor do lists show a sealed match, or the tournament a duplicate round's scores: a score
	// tells something of the cards (a lead that scores 10 is the 5-5).
	for _, path := range []string{"/api/v1/matches", "/api/v1/matches?status=finished", "/api/v1/matches?status=in_progress",
		"/api/v1/players/" + one.Seats[0].Player + "/matches", "/api/v1/players/" + two.Seats[0].Player + "/matches"} {
		b := c.must(http.StatusOK, "GET", path, "", nil, nil)
		record(b)
		if contains(b, one.Match) || contains(b, two.Match) {
			t.Fatalf("GET %s lists a sealed match: %s", path, b)
		}
	}
	if v := c.tournament(id); v.Rounds[0].Tables[0].Scores != nil {
		t.Fatalf("the tournament shows a sealed table's scores: %v", v.Rounds[0].Tables[0].Scores)
	}
	outsiders := map[string]string{"spectator": ""}
	for who, key := range outsiders {
		for _, path := range []string{m, m + "/legal-moves", m + "/events", m + "/replay?step=2", m + "/export", m + "/export?format=text", m + "/audit", m + "/stream"} {
			code, b := c.call("GET", path, key, nil)
			record(b)
			if code != http.StatusConflict || !contains(b, "MATCH_SEALED") {
				t.Fatalf("%s GET %s: %d %s, want 409 MATCH_SEALED", who, path, code, b)
			}
		}
		code, b := c.call("POST", m+"/review", key, nil)
		record(b)
		if code != http.StatusConflict {
			t.Fatalf("%s POST review: %d %s", who, code, b)
		}
	}
	for seat, s := range one.Seats {
		key := keys[s.Player]
		var view struct {
			Hand *struct {
				Hands [][]string `json:"hands"`
			} `json:"hand"`
		}
		record(c.must(http.StatusOK, "GET", m, key, nil, &view))
		if view.Hand != nil && view.Hand.Hands != nil {
			t.Fatalf("seat %d sees every hand of its sealed match: %v", seat, view.Hand.Hands)
		}
		x := c.export(one.Match, key)
		b := c.must(http.StatusOK, "GET", m+"/export", key, nil, nil)
		record(b)
		for _, hands := range handsOf(t, x) {
			if hands[1-seat] != nil {
				t.Fatalf("seat %d's export shows seat %d's hand: %v", seat, 1-seat, hands[1-seat])
			}
		}
		if contains(b, `"hash"`) || contains(b, "raw_data") {
			t.Fatalf("seat %d's export of a sealed match carries its chain", seat)
		}
		for _, path := range []string{m + "/events", m + "/replay?step=2", m + "/audit"} {
			record(c.must(http.StatusOK, "GET", path, key, nil, nil))
		}
		code, b := c.call("POST", m+"/review", key, nil)
		record(b)
		if code != http.StatusConflict {
			t.Fatalf("seat %d POST review: %d %s", seat, code, b)
		}
	}
	var audit api.TournamentAudit
	record(c.must(http.StatusOK, "GET", "/api/v1/tournaments/"+id+"/audit", "", nil, &audit))
	record(c.must(http.StatusOK, "GET", "/api/v1/tournaments/"+id+"/export", "", nil, nil))
	if !audit.OK {
		t.Fatalf("audit mid-round: %+v", audit)
	}

	// Table 2 ends: the round ends, its seed is revealed, and table 1 opens.
	c.must(http.StatusOK, "POST", "/api/v1/matches/"+two.Match+"/resign", keys[two.Seats[1].Player], nil, nil)
	v = c.waitFor(id, "finished", func(v api.TournamentView) bool { return v.Status == "finished" })
	seed := v.Rounds[0].Seed
	if seed == "" {
		t.Fatal("the round's seed was not revealed")
	}
	for i, b := range seen {
		if contains(b, seed) {
			t.Fatalf("answer %d while sealed holds the round's seed: %s", i, b)
		}
	}
	full := c.export(one.Match, "")
	hands := handsOf(t, full)
	if len(hands) == 0 || hands[0][0] == nil || hands[0][1] == nil {
		t.Fatalf("the opened export hides hands: %v", hands)
	}
	// No answer while sealed showed a tile of the hand the other table was still holding: the
	// first deal's tiles of each seat appear only in what that seat itself received.
	b := c.must(http.StatusOK, "GET", m+"/export", "", nil, nil)
	if !contains(b, seed) || !contains(b, `"hash"`) {
		t.Fatalf("the opened export lacks its seed or chain")
	}
	if off := c.offline(id); !off.OK {
		t.Fatalf("offline audit %+v", off)
	}
}
