package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
)

// TestSealedMatchRatedWhenItsRoundEnds: a rated duplicate round whose first table ends long
// before the second. Until the round ends, the ended match moves no rating: its players'
// ratings, history and counts show nothing of it, and it has no rating_changes. Once the
// round ends both tables are rated, each at the round's end, which every player's history
// shows (fresh players against each other: the result is recorded and moves nothing,
// docs/ratings.md, "Farming").
func TestSealedMatchRatedWhenItsRoundEnds(t *testing.T) {
	c := newRatedCup(t)
	ids, keys := c.fourPlayers()
	id, v := c.startedDuplicate(ids, keys, true)
	one, two := v.Rounds[0].Tables[0], v.Rounds[0].Tables[1]
	c.must(http.StatusOK, "POST", "/api/v1/matches/"+one.Match+"/resign", keys[one.Seats[0].Player], nil, nil)
	c.advance(id)
	c.rate()
	for _, s := range one.Seats {
		var pr api.PlayerRatingsResponse
		b := c.must(http.StatusOK, "GET", "/api/v1/players/"+s.Player+"/ratings", "", nil, &pr)
		if len(pr.History) != 0 || len(pr.Ratings) != 0 {
			t.Fatalf("%s's ratings show its sealed match mid-round: %s", s.Name, b)
		}
		var m struct {
			RatingChanges []json.RawMessage `json:"rating_changes"`
		}
		c.must(http.StatusOK, "GET", "/api/v1/matches/"+one.Match, keys[s.Player], nil, &m)
		if len(m.RatingChanges) != 0 {
			t.Fatalf("the sealed match shows its rating changes to seat %d mid-round", s.Seat)
		}
	}

	c.must(http.StatusOK, "POST", "/api/v1/matches/"+two.Match+"/resign", keys[two.Seats[1].Player], nil, nil)
	v = c.waitFor(id, "finished", func(v api.TournamentView) bool { return v.Status == "finished" })
	c.rate()
	var x api.TournamentExport
	c.must(http.StatusOK, "GET", "/api/v1/tournaments/"+id+"/export", "", nil, &x)
	var roundEnd time.Time
	for _, e := range x.Events {
		if e.Type == "round.ended" {
			roundEnd = e.At
		}
	}
	for _, tb := range v.Rounds[0].Tables {
		for _, s := range tb.Seats {
			var pr api.PlayerRatingsResponse
			b := c.must(http.StatusOK, "GET", "/api/v1/players/"+s.Player+"/ratings", "", nil, &pr)
			if len(pr.History) != 1 || pr.History[0].MatchID != tb.Match || !pr.History[0].EndedAt.Equal(roundEnd) {
				t.Fatalf("%s's ratings after the round ended at %s: %s", s.Name, roundEnd, b)
			}
		}
	}
}
