package api_test

import (
	"net/http"
	"testing"

	"github.com/allfives/allfives/api"
)

// TestTournamentCommands: the organiser's limit, entries and withdrawals, who may start and
// cancel, and a duplicate round cut short by a cancel, which reveals its seed and opens its
// matches.
func TestTournamentCommands(t *testing.T) {
	c := newCup(t)
	_, org := c.player("Organiser")
	ada, adaKey := c.player("Ada")
	_, bobKey := c.player("Bob")
	swiss := api.CreateTournamentRequest{Name: "Cup", Format: "2p", System: "swiss", Rounds: 1}
	var ids []string
	for i := range 3 {
		spec := swiss
		spec.Duplicate = i == 2
		ids = append(ids, c.createTournament(org, spec))
	}
	c.must(http.StatusTooManyRequests, "POST", "/api/v1/tournaments", org, swiss, nil)
	c.must(http.StatusBadRequest, "POST", "/api/v1/tournaments", adaKey, api.CreateTournamentRequest{Name: "RR", Format: "3p", System: "round_robin"}, nil)
	c.must(http.StatusUnauthorized, "POST", "/api/v1/tournaments", "", swiss, nil)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+ids[0]+"/cancel", org, nil, nil)
	c.must(http.StatusConflict, "POST", "/api/v1/tournaments/"+ids[0]+"/cancel", org, nil, nil)
	c.createTournament(org, swiss) // a cancelled tournament frees its place

	cup := ids[1]
	c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+cup+"/entries", adaKey, nil, nil)
	c.must(http.StatusForbidden, "POST", "/api/v1/tournaments/"+cup+"/entries", adaKey, map[string]string{"bot": "greedy"}, nil)
	c.must(http.StatusForbidden, "DELETE", "/api/v1/tournaments/"+cup+"/entries/"+ada, bobKey, nil, nil)
	c.must(http.StatusConflict, "POST", "/api/v1/tournaments/"+cup+"/start", org, nil, nil) // one entry of two
	c.must(http.StatusOK, "DELETE", "/api/v1/tournaments/"+cup+"/entries/me", adaKey, nil, nil)
	c.must(http.StatusNotFound, "DELETE", "/api/v1/tournaments/"+cup+"/entries/me", adaKey, nil, nil)
	c.must(http.StatusNotFound, "GET", "/api/v1/tournaments/0123456789abcdef0123456789abcdef", "", nil, nil)
	var list api.TournamentList
	c.must(http.StatusOK, "GET", "/api/v1/tournaments?status=cancelled", "", nil, &list)
	if len(list.Tournaments) != 1 || list.Tournaments[0].ID != ids[0] || list.Tournaments[0].Cancelled == nil {
		t.Fatalf("cancelled tournaments: %+v", list)
	}

	// A duplicate round of two players, cancelled while its one table plays: the cancel reveals
	// the round's seed, and the match opens to spectators.
	dup := ids[2]
	c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+dup+"/entries", adaKey, nil, nil)
	c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+dup+"/entries", bobKey, nil, nil)
	c.must(http.StatusForbidden, "POST", "/api/v1/tournaments/"+dup+"/start", bobKey, nil, nil)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+dup+"/start", org, nil, nil)
	c.must(http.StatusConflict, "DELETE", "/api/v1/tournaments/"+dup+"/entries/me", bobKey, nil, nil)
	v := c.tournament(dup)
	if v.Status != "running" || len(v.Rounds) != 1 || v.Rounds[0].Tables[0].Match == "" {
		t.Fatalf("started: %+v", v)
	}
	m := "/api/v1/matches/" + v.Rounds[0].Tables[0].Match
	c.must(http.StatusConflict, "GET", m, "", nil, nil)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+dup+"/cancel", org, nil, nil)
	if v = c.tournament(dup); v.Status != "cancelled" || v.Rounds[0].Seed == "" {
		t.Fatalf("after the cancel: %s, seed %q", v.Status, v.Rounds[0].Seed)
	}
	c.must(http.StatusOK, "GET", m, "", nil, nil)
	var audit api.TournamentAudit
	if c.must(http.StatusOK, "GET", "/api/v1/tournaments/"+dup+"/audit", "", nil, &audit); !audit.OK {
		t.Fatalf("audit of the cancelled tournament: %+v", audit)
	}
}
