package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
)

// tournamentOf makes a round robin of four for two players, organised by a player made for it,
// with three bots entered by the organiser: one place is left. It answers the tournament's id
// and the organiser's key.
func tournamentOf(s *site, name string) (string, string) {
	s.t.Helper()
	var org api.CreatePlayerResponse
	s.call("POST", "/api/v1/players", "", api.CreatePlayerRequest{Name: "Olga " + name}, &org)
	var tv api.TournamentView
	s.call("POST", "/api/v1/tournaments", org.Key, api.CreateTournamentRequest{Name: name, Format: "2p", System: "round_robin", Target: 15, MinEntries: 4, MaxEntries: 4}, &tv)
	for _, b := range []string{"greedy", "random", "expert"} {
		s.call("POST", "/api/v1/tournaments/"+tv.ID+"/entries", org.Key, api.EnterTournamentRequest{Bot: b}, nil)
	}
	return tv.ID, org.Key
}

// TestTournamentJoinAndPlay: Ada, signed in, finds a round robin of four on the tournaments
// page, joins it, withdraws and joins again before the start; the organiser starts it through
// the API; her page shows the rounds' pairings, each linked to its match, and the standings,
// which change live as the bots' match ends; her pairing's link opens her table, where she
// plays with her key. The tournament's page passes axe-core and fits 390 px when running.
func TestTournamentJoinAndPlay(t *testing.T) {
	t.Parallel()
	s := newMatcherSite(t)
	id, orgKey := tournamentOf(s, "Club night")
	b := newBrowser(t)
	ada := b.tab(false)
	ada.signUp(s.url, "Ada")
	ada.clickWhen("the tournaments link", "#tournaments-link")
	pollAcross[bool](ada, "the tournaments page", `location.pathname === "/tournaments" && document.getElementById("tournaments").dataset.loaded === "1"`)
	ada.clickWhen("the tournament", fmt.Sprintf(`#t-upcoming li[data-id=%q] a`, id))
	pollAcross[bool](ada, "the tournament's page", `document.getElementById("tournament").dataset.status === "upcoming" && document.querySelectorAll("#t-entries li[data-player]").length === 3`)
	ada.clickWhen("join", "#t-join")
	poll[bool](ada, "Ada entered", `document.querySelectorAll("#t-entries li[data-player]").length === 4 && !document.getElementById("t-withdraw").hidden && document.getElementById("t-join").hidden`)
	ada.clickWhen("withdraw", "#t-withdraw")
	poll[bool](ada, "Ada withdrawn", `document.querySelectorAll("#t-entries li[data-player]").length === 3 && !document.getElementById("t-join").hidden`)
	ada.clickWhen("join again", "#t-join")
	poll[bool](ada, "Ada entered again", `document.querySelectorAll("#t-entries li[data-player]").length === 4`)
	ada.checkAxe("tournament, upcoming")

	s.call("POST", "/api/v1/tournaments/"+id+"/start", orgKey, nil, nil)
	poll[bool](ada, "the first round's pairings", `document.getElementById("tournament").dataset.status === "running" && document.querySelectorAll("#t-rounds a.pairing[data-match]").length === 2`)
	poll[bool](ada, "the standings", `document.querySelectorAll("#t-standings-rows tr").length === 4 && !document.getElementById("t-standings").hidden`)
	// The bots' table plays itself out: its score shows without a reload.
	poll[bool](ada, "the bots' score, live", `!!document.querySelector("#t-rounds li[data-table] b")`)
	ada.checkAxe("tournament, running")
	ada.fitsWidth("tournament, running", 390)
	ada.checkAccessible("tournament, running")

	var tv api.TournamentView
	s.call("GET", "/api/v1/tournaments/"+id, "", nil, &tv)
	mine := ""
	for _, tb := range tv.Rounds[0].Tables {
		for _, seat := range tb.Seats {
			if seat.Name == "Ada" {
				mine = tb.Match
			}
		}
	}
	if mine == "" {
		t.Fatalf("Ada has no table in round 1: %+v", tv.Rounds[0])
	}
	link := fmt.Sprintf(`#t-rounds li.you a.pairing[data-match=%q]`, mine)
	if text := poll[string](ada, "Ada's pairing", fmt.Sprintf(`(document.querySelector(%s) || {}).textContent`, jsonString(link))); !strings.Contains(text, "Ada") {
		t.Errorf("Ada's pairing reads %q", text)
	}
	ada.clickWhen("Ada's pairing", link)
	pollAcross[bool](ada, "Ada's table", fmt.Sprintf(`location.pathname === "/play/%s" && !document.getElementById("seat-box").hidden`, mine))
	if who := eval[string](ada, `document.getElementById("seat-who").textContent`); !strings.Contains(who, "Ada") {
		t.Errorf("the table of Ada's pairing says %q", who)
	}
	// Back on the tournament's page, Ada resigns (through the API, with her key): her match
	// ends, so the round does; the standings count it and round 2 is paired, without a reload.
	ada.do("the tournament again", chromedp.Navigate(s.url+"/tournaments/"+id))
	poll[bool](ada, "the page", `document.getElementById("tournament").dataset.status === "running"`)
	key := eval[string](ada, `JSON.parse(localStorage.getItem("allfives:player")).key`)
	s.call("POST", "/api/v1/matches/"+mine+"/resign", key, nil, nil)
	poll[bool](ada, "the standings, live", `[...document.querySelectorAll("#t-standings-rows td.played")].every((td) => td.textContent === "1") && !!document.querySelector('#t-rounds section[data-round="2"] a.pairing')`)
	ada.do("the list", chromedp.Navigate(s.url+"/tournaments"))
	poll[bool](ada, "the tournament running", fmt.Sprintf(`!!document.querySelector('#t-running li[data-id=%q]')`, id))
	ada.checkAxe("tournaments")
	ada.fitsWidth("tournaments", 390)
}
