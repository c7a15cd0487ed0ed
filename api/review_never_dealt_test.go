package api_test

import (
	"net/http"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// TestReviewOfAMatchNotPlayedToItsEnd: a review of a match that was never dealt (a declined
// challenge, a withdrawn one, one still waiting for its seat) or is still being played is
// 409 MATCH_NOT_FINISHED, asked for (POST) or read (GET), before anything is queued: the GET
// after it is the same 409 (not a 500 of a review that could not be computed), and the
// match's view says nothing of a review.
func TestReviewOfAMatchNotPlayedToItsEnd(t *testing.T) {
	h := newHarness(t, apitest.Reviews(nil))
	ada, bob := h.newPlayer("Ada R"), h.newPlayer("Bob R")
	declined, _ := h.challenge(ada.Key, bob.Player.ID)
	declined.post("/seats/1/decline", bob.Key).okView(t)
	withdrawn, _ := h.challenge(ada.Key, bob.Player.ID)
	withdrawn.post("/cancel", withdrawn.tokens[0]).okView(t)
	waiting, _ := h.challenge(ada.Key, bob.Player.ID)
	live := h.createMatch(api.CreateMatchRequest{Players: []api.PlayerRequest{{Name: "Ann", Kind: "human"}, {Name: "Bob", Kind: "bot", Bot: "greedy"}}})
	for name, tb := range map[string]*table{"declined": declined, "withdrawn": withdrawn, "waiting": waiting, "live": live} {
		for _, cred := range []string{"", tb.tokens[0]} {
			var hdr []string
			if cred != "" {
				hdr = auth(cred)
			}
			h.do(http.MethodPost, tb.path("/review"), nil, hdr...).problem(t, http.StatusConflict, "MATCH_NOT_FINISHED")
			h.do(http.MethodGet, tb.path("/review"), nil, hdr...).problem(t, http.StatusConflict, "MATCH_NOT_FINISHED")
		}
		waitReviews(t, h.Reviews)
		h.do(http.MethodGet, tb.path("/review"), nil).problem(t, http.StatusConflict, "MATCH_NOT_FINISHED")
		r := h.do(http.MethodGet, tb.path(""), nil)
		if r.status != http.StatusOK || contains(r.body, `"review"`) {
			t.Errorf("the %s match's view: %d %s", name, r.status, r.body)
		}
	}
}
