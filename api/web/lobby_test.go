package web_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLobbyJoin creates a listed match with an open seat from the home page in one browser
// context and takes the seat from the lobby in another; the creator's table starts live. A
// second match, not listed, is joined through its invite link.
func TestLobbyJoin(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	ann, ben := b.tab(false), b.tab(true)
	ann.do("create a listed match with an open seat",
		chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("create")),
		setInput("name-0", "Ann"), setSelect("kind-1", "open"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("listed").checked = true`),
		chromedp.Click(chromedp.CSS(`#create button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("table-link")),
		chromedp.Click(chromedp.ID("table-link")),
		chromedp.WaitVisible(chromedp.ID("hand")),
	)
	id := eval[string](ann, `location.pathname.split("/")[2]`)
	poll[bool](ann, "waiting", `document.getElementById("table").dataset.status === "waiting" && document.getElementById("turn").textContent.includes("Seat 1 is open to anyone.")`)

	ben.do("open the lobby", chromedp.Navigate(s.url+"/"))
	link := fmt.Sprintf(`#lobby li[data-id=%q] a`, id)
	poll[bool](ben, "the match in the lobby", fmt.Sprintf(`!!document.querySelector(%s)`, jsonString(link)))
	ben.checkAccessible("home with a lobby")
	ben.do("join from the lobby",
		chromedp.Click(chromedp.CSS(link)),
		chromedp.WaitVisible(chromedp.ID("join-name")),
		chromedp.SendKeys(chromedp.ID("join-name"), "Ben"),
		chromedp.Click(chromedp.CSS(`#join-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("hand")),
	)
	if who := eval[string](ben, `document.getElementById("seat-who").textContent`); who != "You are Ben (seat 1)." {
		t.Errorf("after joining the table says %q", who)
	}
	// Ann's table starts without a reload. A match others may join takes no chosen seed, so the
	// deal is the server's: whoever holds the highest double leads, and the other sees the lead
	// live.
	leader, watcher, name := ann, ben, "Ann"
	if v := s.view(id, ""); v.Turn != nil && *v.Turn == 1 {
		leader, watcher, name = ben, ann, "Ben"
	}
	rng := rand.New(rand.NewPCG(5, 6))
	leader.playOne(rng)
	v := s.view(id, "")
	poll[bool](watcher, name+"'s lead, live", fmt.Sprintf(`document.getElementById("table").dataset.version === "%d"`, v.Version))
	if log := eval[string](watcher, `document.getElementById("log").textContent`); !strings.Contains(log, "Ben takes seat 1") || !strings.Contains(log, name+" leads ") {
		t.Errorf("the log of the seat that watched the lead reads %q", log)
	}

	// Not listed: the invite from the create answer takes the seat; while a third seat is
	// still open, the seat can be left again.
	var created struct {
		Match struct {
			ID string `json:"id"`
		} `json:"match"`
		Invites []struct {
			Seat   int    `json:"seat"`
			Invite string `json:"invite"`
		} `json:"invites"`
	}
	s.call("POST", "/api/v1/matches", "", map[string]any{"players": []map[string]string{{"name": "Cy", "kind": "human"}, {"kind": "open"}, {"kind": "open"}}}, &created)
	// The invite link carries the seat and the invite in its fragment, which fills the form.
	ben.do("join with an invite link",
		chromedp.Navigate(fmt.Sprintf("%s/play/%s#invite=%d.%s", s.url, created.Match.ID, created.Invites[0].Seat, created.Invites[0].Invite)),
		chromedp.WaitVisible(chromedp.ID("join-invite")),
		chromedp.SendKeys(chromedp.ID("join-name"), "Di"),
	)
	if got := eval[string](ben, `document.getElementById("join-invite").value + " " + location.hash`); got != created.Invites[0].Invite+" " {
		t.Errorf("the invite link left the form and address as %q", got)
	}
	ben.do("join",
		chromedp.Click(chromedp.CSS(`#join-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("hand")),
	)
	if who := eval[string](ben, `document.getElementById("seat-who").textContent`); who != "You are Di (seat 1)." {
		t.Errorf("after joining by invite the table says %q", who)
	}
	if html := eval[string](ben, `document.documentElement.outerHTML + location.href`); strings.Contains(html, created.Invites[0].Invite) {
		t.Error("the invite stays in the page after joining")
	}
	ben.do("leave the seat", chromedp.Click(chromedp.ID("leave")), chromedp.WaitVisible(chromedp.ID("join-form")))
	var open struct {
		OpenSeats []int `json:"open_seats"`
	}
	s.call("GET", "/api/v1/matches/"+created.Match.ID, "", nil, &open)
	if fmt.Sprint(open.OpenSeats) != "[1 2]" {
		t.Errorf("after leaving, the open seats are %v", open.OpenSeats)
	}
	if got := eval[string](ben, `localStorage.getItem("allfives:seat:`+created.Match.ID+`") || ""`); got != "" {
		t.Errorf("the token of the seat left is still kept: %q", got)
	}
}
