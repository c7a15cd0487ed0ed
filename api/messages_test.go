package api_test

import (
	"net/http"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestMessagesSayWhatTheyMean pins the words of refusals that once said something else than
// what happened: a rematch of a live match spoke of reviews, 401s where no seat token was
// involved asked for one, and an unknown match was named by the store's query.
func TestMessagesSayWhatTheyMean(t *testing.T) {
	h := newHarness(t)
	ada, bob := h.newPlayer("Ada"), h.newPlayer("Bob")
	live := h.createMatchWith(ada.Key, api.CreateMatchRequest{Players: []api.PlayerRequest{
		{Kind: "human", Player: "me"}, {Name: "Greedy", Kind: "bot", Bot: "greedy"},
	}})
	other := h.newPlayer("Cy").Player.ID
	challenge, _ := h.challenge(bob.Key, other)
	open, _ := createSeated(t, h, false)
	unknown := "/api/v1/matches/00000000000000000000000000000000"
	for _, c := range []struct {
		name, method, path string
		body               any
		hdr                []string
		status             int
		code, detail       string
	}{
		{"rematch of a live match", "POST", live.path("/rematch"), nil, auth(ada.Key), 409, "MATCH_NOT_FINISHED",
			"the match has not finished: only a finished match has a rematch"},
		{"a key of a player with no seat", "GET", live.path(""), nil, auth(bob.Key), 401, "UNAUTHORIZED",
			"the player of this key holds no seat of this match: a key stands only for its own player's seats"},
		{"a ticket for a key with no seat", "POST", live.path("/tickets"), nil, auth(bob.Key), 401, "UNAUTHORIZED",
			"the player of this key holds no seat of this match: a key stands only for its own player's seats"},
		{"a rematch with a key with no seat", "POST", live.path("/rematch"), nil, auth(bob.Key), 401, "UNAUTHORIZED",
			"the player of this key holds no seat of this match: a key stands only for its own player's seats"},
		{"another player's turns", "GET", "/api/v1/players/" + ada.Player.ID + "/matches?turn=me", nil, auth(bob.Key), 401, "UNAUTHORIZED",
			"turn=me lists the caller's own turns: send it to /api/v1/players/" + bob.Player.ID + "/matches"},
		{"a challenge taken by another player", "POST", challenge.path("/seats/1/join"), api.JoinRequest{}, auth(ada.Key), 401, "UNAUTHORIZED",
			"seat 1 is reserved for a player: only that player's key joins it"},
		{"a join with a seat token", "POST", open.path("/seats/1/join"), api.JoinRequest{Name: "Dee"}, auth(open.tokens[0]), 401, "UNAUTHORIZED",
			"a join takes a player key (which binds the seat to its player) or no Authorization, never a seat token"},
		{"a ticket without a credential", "POST", live.path("/tickets"), nil, nil, 401, "UNAUTHORIZED",
			"send the seat's token, or the key of its player, as Authorization: Bearer"},
		{"a rematch without a credential", "POST", live.path("/rematch"), nil, nil, 401, "UNAUTHORIZED",
			"send Authorization: Bearer <seat token or player key> of a seat of the finished match"},
		{"an unknown match", "GET", unknown, nil, nil, 404, "MATCH_NOT_FOUND",
			`no match has the id "00000000000000000000000000000000"`},
		{"the events of an unknown match", "GET", unknown + "/events", nil, nil, 404, "MATCH_NOT_FOUND",
			`no match has the id "00000000000000000000000000000000"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := h.do(c.method, c.path, c.body, c.hdr...).problem(t, c.status, c.code)
			if p.Detail != c.detail {
				t.Fatalf("detail %q\nwant   %q", p.Detail, c.detail)
			}
		})
	}
}

// TestReviewMessages pins the review routes' words: an unknown match is named as such, not by
// the store's query, and a live one says that only a finished match is reviewed.
func TestReviewMessages(t *testing.T) {
	h := newHarness(t, apitest.WithStore(sqliteReviewStore(t)), apitest.WithoutPlayers(), apitest.Reviews(nil))
	live := h.create("", false, "human", "greedy")
	unknown := "/api/v1/matches/00000000000000000000000000000000/review"
	for _, method := range []string{http.MethodPost, http.MethodGet} {
		p := h.do(method, unknown, nil).problem(t, 404, "MATCH_NOT_FOUND")
		if want := `no match has the id "00000000000000000000000000000000"`; p.Detail != want {
			t.Fatalf("%s review of an unknown match: %q, want %q", method, p.Detail, want)
		}
		p = h.do(method, live.path("/review"), nil).problem(t, 409, "MATCH_NOT_FINISHED")
		if want := "the match has not finished: only a finished match can be reviewed"; p.Detail != want {
			t.Fatalf("%s review of a live match: %q, want %q", method, p.Detail, want)
		}
	}
}
