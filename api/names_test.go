package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestLookAlikeNames: through the real router on each engine, player names are one under
// their UTS #39 skeleton as well as under PRECIS, names that mix scripts beyond the
// moderately restrictive level are refused, and names of the bots' kind are kept for them.
func TestLookAlikeNames(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			h := newHarness(t, apitest.WithStore(eng.open(t)))
			bob := h.newPlayer("Bob")
			h.newPlayer("Борис")   // one script, Cyrillic: welcome
			h.newPlayer("Ali علي") // Latin and Arabic: the level allows it
			for name, why := range map[string]string{
				"ВОВ":        "", // all Cyrillic, and looks like BOB, which is Bob
				"ΒΟΒ":        "", // all Greek, the same
				"bob":        "",
				"B0b":        "", // a zero for the o
				"bot-x":      "bots",
				"Bot-Expert": "bots",
				"bot-expert": "",
			} {
				p := h.do(http.MethodPost, "/api/v1/players", api.CreatePlayerRequest{Name: name}).problem(t, http.StatusConflict, "NAME_TAKEN")
				if !strings.Contains(p.Detail, why) {
					t.Errorf("%q: detail %q, want %q in it", name, p.Detail, why)
				}
			}
			for _, name := range []string{"Вob", "Βob", "bot-expеrt", "Ada Лавлейс"} {
				p := h.do(http.MethodPost, "/api/v1/players", api.CreatePlayerRequest{Name: name}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
				if !strings.Contains(p.Detail, "mixes the scripts") || !strings.Contains(p.Detail, "moderately restrictive") {
					t.Errorf("%q: detail %q", name, p.Detail)
				}
			}
			var found api.FoundPlayerResponse
			h.do(http.MethodGet, "/api/v1/players?name=BOB", nil).decode(t, &found)
			if found.Player.ID != bob.Player.ID {
				t.Fatalf("Bob by name: %+v", found)
			}
		})
	}
}

// TestSeatNames: a bound seat shows its player's name (another name given is 400, the same
// name in another case is taken as it), at create and at a join with a key; two seats of a
// match may not have names that look alike; a bot seat needs no name.
func TestSeatNames(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			h := newHarness(t, apitest.WithStore(eng.open(t)))
			bob, ivy := h.newPlayer("Bob S"), h.newPlayer("Ivy S")
			bot := api.PlayerRequest{Kind: "bot", Bot: "random"}
			create := func(key string, players ...api.PlayerRequest) *reply {
				return h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Players: players}, auth(key)...)
			}
			p := create(bob.Key, api.PlayerRequest{Kind: "human", Player: "me", Name: "Bob"}, bot).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
			if !strings.Contains(p.Detail, "players[0].name") || !strings.Contains(p.Detail, `"Bob S"`) {
				t.Fatalf("detail %q", p.Detail)
			}
			r := create(bob.Key, api.PlayerRequest{Kind: "human", Player: "me", Name: "bob s"}, bot)
			var out api.CreateMatchResponse
			r.decode(t, &out)
			if r.status != http.StatusCreated || out.Match.Seats[0].Name != "Bob S" || out.Match.Seats[1].Name != "bot-random" {
				t.Fatalf("the player's own name in another case: %d %s", r.status, r.body)
			}

			// A join with a key: the player's name, or none.
			tb, _ := createSeated(t, h, true)
			p = tb.joinWith(1, ivy.Key, "Bob S").problem(t, http.StatusBadRequest, "INVALID_REQUEST")
			if !strings.Contains(p.Detail, `"Ivy S"`) {
				t.Fatalf("detail %q", p.Detail)
			}
			if j := tb.joinWith(1, ivy.Key, "Ivy S"); j.status != http.StatusCreated {
				t.Fatalf("a join with the player's own name: %d %s", j.status, j.body)
			}
			if v := tb.view(-1); v.Seats[1].Name != "Ivy S" || v.Seats[1].Player != ivy.Player.ID {
				t.Fatalf("the joined seat %+v", v.Seats[1])
			}
			// An anonymous join whose name looks like a seated one's.
			p = tb.join(2, "Ivу S", "").problem(t, http.StatusBadRequest, "INVALID_REQUEST") // Cyrillic у: mixed
			tb.join(2, "IVY S", "").problem(t, http.StatusBadRequest, "INVALID_REQUEST")

			// Anonymous seats whose names look alike.
			p = h.do(http.MethodPost, "/api/v1/matches", api.CreateMatchRequest{Players: []api.PlayerRequest{
				{Name: "Bob", Kind: "human"}, {Name: "ВОВ", Kind: "human"}}}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
			if !strings.Contains(p.Detail, "look alike") {
				t.Fatalf("detail %q", p.Detail)
			}

			// Bot seats with no name: named after their bot's player, a second of one
			// strategy numbered; rated, the bot's player's name.
			two := h.createMatch(api.CreateMatchRequest{Players: []api.PlayerRequest{bot, bot, {Kind: "bot", Bot: "greedy"}}})
			if v := two.view(-1); v.Seats[0].Name != "bot-random" || v.Seats[1].Name != "bot-random 2" || v.Seats[2].Name != "bot-greedy" {
				t.Fatalf("bot seats named %+v", v.Seats)
			}
			target := 5
			rated := h.createMatch(api.CreateMatchRequest{Rated: true, Target: &target, Players: []api.PlayerRequest{{Kind: "bot", Bot: "expert"}, {Kind: "bot", Bot: "pimc"}}})
			if ev := rated.events(-1).Events[0]; ev.Data.Players[0].Name != "bot-expert" || ev.Data.Players[1].Name != "bot-pimc" {
				t.Fatalf("match.created of rated bots %+v", ev.Data.Players)
			}
		})
	}
}
