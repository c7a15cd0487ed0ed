package web_test

import (
	"testing"

	"github.com/allfives/allfives/api/apitest"
)

// newMatcherSite is apitest's server: players, Play now's matcher (bots after 2 s) and the
// tournament driver running.
func newMatcherSite(t *testing.T) *site {
	t.Helper()
	srv := apitest.Server(t, 7)
	return &site{t: t, url: srv.URL, srv: srv}
}

// TestPlayNowPairsTwoPlayers: Ada and Bob, in two browser contexts, press Play now for two
// players; each sees the waiting state, and both are taken to one table, each in its own seat,
// playing with its key. Cy, alone, gets a bot once the matcher stops waiting for a human.
func TestPlayNowPairsTwoPlayers(t *testing.T) {
	t.Parallel()
	s := newMatcherSite(t)
	b := newBrowser(t)
	ada, bob, cy := b.tab(false), b.tab(true), b.tab(true)
	ada.signUp(s.url, "Ada")
	bob.signUp(s.url, "Bob")
	cy.signUp(s.url, "Cy")
	for _, tb := range []*tab{ada, bob} {
		tb.do("choose two players", setSelect("play-format", "2p"))
	}
	ada.clickWhen("Ada's Play now", "#play-now-button")
	bob.clickWhen("Bob's Play now", "#play-now-button")
	ids := map[string]int{}
	for i, tb := range []*tab{ada, bob} {
		id := pollAcross[string](tb, "the table", `location.pathname.startsWith("/play/") && !!document.getElementById("seat-who") && !document.getElementById("seat-box").hidden && location.pathname.split("/")[2]`)
		ids[id]++
		v := s.view(id, "")
		if v.Status != "in_progress" || len(v.Seats) != 2 {
			t.Fatalf("tab %d's match is %s with %d seats", i, v.Status, len(v.Seats))
		}
		for _, seat := range v.Seats {
			if seat.Kind != "human" {
				t.Errorf("a seat of the paired match is %s, not one of the two players", seat.Kind)
			}
		}
	}
	if len(ids) != 1 {
		t.Fatalf("Ada and Bob were sent to %d tables: %v", len(ids), ids)
	}
	names := map[string]bool{}
	for id := range ids {
		for _, seat := range s.view(id, "").Seats {
			names[seat.Name] = true
		}
	}
	if !names["Ada"] || !names["Bob"] {
		t.Errorf("the paired match seats %v", names)
	}

	// Cy alone: the waiting state says the time waited and offers Cancel, then a bot comes.
	cy.clickWhen("Cy's Play now", "#play-now-button")
	poll[bool](cy, "the waiting state", `!document.getElementById("seeking").hidden && document.getElementById("seek-elapsed").textContent.startsWith("waiting 0:0")  && document.getElementById("play-now").hidden`)
	id := pollAcross[string](cy, "Cy's table", `location.pathname.startsWith("/play/") && !document.getElementById("seat-box").hidden && location.pathname.split("/")[2]`)
	v := s.view(id, "")
	bots := 0
	for _, seat := range v.Seats {
		if seat.Kind == "bot" {
			bots++
		}
	}
	if v.Status != "in_progress" || bots != 1 {
		t.Errorf("Cy's match is %s with %d bots: %+v", v.Status, bots, v.Seats)
	}
	if who := eval[string](cy, `document.getElementById("seat-who").textContent`); who == "" {
		t.Error("Cy's table does not say whose seat it is")
	}
}

// TestPlayNowCancel: a seek cancelled from the waiting state ends (DELETE), and the button is
// back; the seek reads as cancelled.
func TestPlayNowCancel(t *testing.T) {
	t.Parallel()
	s := newPlayersSite(t) // no matcher: the seek waits until it is cancelled
	b := newBrowser(t)
	dee := b.tab(false)
	dee.signUp(s.url, "Dee")
	dee.clickWhen("Play now", "#play-now-button")
	seek := poll[string](dee, "the waiting state", `!document.getElementById("seeking").hidden && document.getElementById("seeking").dataset.seek`)
	dee.clickWhen("Cancel", "#seek-cancel")
	poll[bool](dee, "the button back", `document.getElementById("seeking").hidden && !document.getElementById("play-now").hidden && document.getElementById("seek-note").textContent === "The search was cancelled."`)
	key := eval[string](dee, `JSON.parse(localStorage.getItem("allfives:player")).key`)
	var got struct {
		Seek struct{ Status string } `json:"seek"`
	}
	s.call("GET", "/api/v1/seeks/"+seek, key, nil, &got)
	if got.Seek.Status != "cancelled" {
		t.Errorf("the seek cancelled in the page is %s", got.Seek.Status)
	}
}
