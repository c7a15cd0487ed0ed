package connect

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/bot"
)

// TestRatedSeekGame: two connectors with reference engines seek a rated two-player match,
// are paired with each other, play it to its end and stop after it (--matches 1).
func TestRatedSeekGame(t *testing.T) {
	srv := startServer(t, nil)
	ada, bo := newPlayer(t, srv.URL, "Ada", true), newPlayer(t, srv.URL, "Bo", true)
	a := runConnector(t, Config{Server: srv.URL, Key: ada.Key, Engine: refEngine(t, bot.NameGreedy), Seek: "2p", Rated: true, Matches: 1})
	b := runConnector(t, Config{Server: srv.URL, Key: bo.Key, Engine: refEngine(t, bot.NameRandom), Seek: "2p", Rated: true, Matches: 1})
	for _, c := range []*connector{a, b} {
		if err := c.result(t, 3*time.Minute); err != nil {
			t.Fatalf("the connector stopped with %v", err)
		}
	}
	for _, c := range []*connector{a, b} {
		if strings.Contains(c.log.String(), "not marked as a program") {
			t.Fatalf("a program's connector warns that its player is not one:\n%s", c.log.String())
		}
	}
	done := matchesOf(t, srv.URL, ada, "finished")
	if len(done) != 1 {
		t.Fatalf("Ada finished %d matches, want 1: %v", len(done), done)
	}
	var view struct {
		Rated bool `json:"rated"`
		Seats []struct {
			Player  string `json:"player"`
			Program bool   `json:"program"`
		} `json:"seats"`
	}
	call(t, srv.URL, "", http.MethodGet, "/matches/"+done[0]["id"].(string), nil, http.StatusOK, &view)
	if !view.Rated || len(view.Seats) != 2 || view.Seats[0].Player == view.Seats[1].Player || !view.Seats[0].Program || !view.Seats[1].Program {
		t.Fatalf("the match is not a rated match between the two: %+v", view)
	}
	for _, p := range []player{ada, bo} {
		found := false
		for _, s := range view.Seats {
			found = found || s.Player == p.ID
		}
		if !found {
			t.Fatalf("%s has no seat in the match: %+v", p.Name, view)
		}
	}
}
