package web_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/sqlite"
)

// newPlayersSite is the whole server as `allfives serve` wires it, lasting players (and so
// stream tickets) and ratings (with no projection running) included, over a real SQLite
// file: apitest.Server, shared with packages that need no players, has none.
func newPlayersSite(t *testing.T) *site {
	t.Helper()
	srv := httptest.NewServer(playersHandler(t))
	t.Cleanup(srv.Close)
	return &site{t: t, url: srv.URL, srv: srv}
}

// playersHandler is newPlayersSite's router, for a test that wraps it.
func playersHandler(t *testing.T) http.Handler {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "allfives.db"), sqlite.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	people := players.NewService(players.Config{Store: store})
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(7), Players: people})
	reviews := reviews.New(reviews.Config{Store: store, Matches: svc, Options: apitest.SmallReview})
	t.Cleanup(reviews.Close)
	// Play now and tournaments are served, but nothing pairs seeks or drives tournaments here:
	// a seek waits until it is cancelled, a tournament until it is started (newMatcherSite
	// runs both).
	tours := tournaments.New(tournaments.Config{Store: store, Matches: svc, Players: people})
	pool := seeks.New(seeks.Config{Store: store, Matches: svc, Keys: people})
	return api.New(api.Config{Service: svc, Players: people, Reviews: reviews, Ratings: ratings.NewService(store), Ready: store, Tournaments: tours, Seeks: pool})
}

// urls records the address of every request a tab sends (documents, fetches, streams).
type urls struct {
	mu   sync.Mutex
	seen []string
}

// record starts recording the tab's requests.
func (u *urls) record(tb *tab) {
	tb.t.Helper()
	if err := chromedp.Listen(tb.ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			u.mu.Lock()
			u.seen = append(u.seen, e.Request.URL+e.Request.URLFragment)
			u.mu.Unlock()
		}
	}); err != nil {
		tb.t.Fatal(err)
	}
}

func (u *urls) all() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.seen...)
}

// secrets is every key and seat token a tab's browser keeps.
func (tb *tab) secrets() []string {
	tb.t.Helper()
	return eval[[]string](tb, `(() => {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (!k.startsWith("allfives:")) continue;
    const v = JSON.parse(localStorage.getItem(k));
    if (v && v.key) out.push(v.key);
    if (v && v.token) out.push(v.token);
  }
  return out;
})()`)
}

// signUp makes a player of a name on the home page, as a person would.
func (tb *tab) signUp(url, name string) {
	tb.t.Helper()
	tb.do("sign up "+name,
		chromedp.Navigate(url+"/"),
		chromedp.WaitVisible(chromedp.ID("signup-name")),
		chromedp.SendKeys(chromedp.ID("signup-name"), name),
		chromedp.Click(chromedp.CSS(`#signup button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("signed-in")),
	)
	if who := eval[string](tb, `document.getElementById("me-name").textContent`); !strings.HasPrefix(who, "You are "+name+" (player id ") {
		tb.t.Errorf("signed up as %s, the page says %q", name, who)
	}
}

// pollAcross is poll across a navigation the page starts itself: a wait that the navigation
// cuts short is begun again in the new page.
func pollAcross[T any](tb *tab, what, expr string) T {
	tb.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		v, err := chromedp.Run(tb.ctx, chromedp.Poll[T](expr, chromedp.WithPollingTimeout(time.Until(deadline)), chromedp.WithPollingInterval(20*time.Millisecond)))
		if err == nil {
			return v
		}
		if time.Now().After(deadline) || tb.ctx.Err() != nil {
			tb.t.Fatalf("waiting for %s: %v", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// playOut plays a match to its end from two tabs, each moving when the API says it is its
// seat's turn.
func playOut(t *testing.T, s *site, id string, tabs []*tab, rng *rand.Rand) api.MatchView {
	t.Helper()
	for moves := 0; ; moves++ {
		v := s.view(id, "")
		if v.Status == "finished" {
			return v
		}
		if moves > 400 {
			t.Fatal("the match did not end in 400 moves")
		}
		if v.Turn == nil {
			t.Fatalf("no seat to move in a match %s", v.Status)
		}
		tabs[*v.Turn].play(rng, nil, false)
	}
}

// TestPlayersChallengeAndRematch signs two players up in two browser contexts. Ada challenges
// Bob by name; Bob, on his home page, sees the challenge arrive live over his player's stream
// and accepts; both play to the end, each seeing the other's moves live; the rematch button
// takes both to the next match. No page ever sends a key or a seat token in an address.
func TestPlayersChallengeAndRematch(t *testing.T) {
	t.Parallel()
	s := newPlayersSite(t)
	b := newBrowser(t)
	ada, bob := b.tab(false), b.tab(true)
	var sent urls
	sent.record(ada)
	sent.record(bob)
	ada.signUp(s.url, "Ada")
	bob.signUp(s.url, "Bob")
	ada.checkAccessible("home, signed in")
	ada.fitsWidth("home, signed in", 360)
	poll[bool](bob, "Bob's player stream", `document.getElementById("me-box").dataset.live === "1"`)
	// Cut every connection: the player's stream is opened again with a new ticket (the first
	// is spent) and still brings the challenge live.
	for _, tb := range []*tab{ada, bob} {
		tb.expectConsole("net::ERR_INCOMPLETE_CHUNKED_ENCODING at " + s.url + "/api/v1/players/me/stream?ticket=")
	}
	s.srv.CloseClientConnections()
	poll[bool](bob, "Bob's player stream cut", `document.getElementById("me-box").dataset.live === "0"`)
	poll[bool](bob, "Bob's player stream again", `document.getElementById("me-box").dataset.live === "1"`)

	ada.do("challenge Bob by name",
		chromedp.SendKeys(chromedp.ID("opponent"), "bob"), // names compare ignoring case
		setInput("challenge-target", "15"),
		chromedp.Click(chromedp.CSS(`#challenge button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("hand")),
	)
	id := eval[string](ada, `location.pathname.split("/")[2]`)
	poll[bool](ada, "the challenge waiting", `document.getElementById("table").dataset.status === "waiting"`)

	accept := fmt.Sprintf(`#my-challenges li[data-id=%q] button.accept`, id)
	poll[bool](bob, "the challenge, live", fmt.Sprintf(`!!document.querySelector(%s)`, jsonString(accept)))
	// A notice says it too, naming the challenger, with a link to the table.
	poll[bool](bob, "the notice of the challenge", fmt.Sprintf(
		`!!document.getElementById("notices") && document.getElementById("notices").textContent.includes("Ada challenges you.") && !!document.querySelector('#notices a[href="/play/%s"]')`, id))
	bob.checkAccessible("home with a challenge")
	bob.clickWhen("accept", accept)
	bob.do("the table after accepting", chromedp.WaitVisible(chromedp.ID("hand")))
	if got := eval[string](bob, `location.pathname`); got != "/play/"+id {
		t.Fatalf("accepting leads to %s", got)
	}
	poll[bool](ada, "the deal, live", `document.getElementById("table").dataset.status === "in_progress"`)

	tabs := []*tab{ada, bob}
	rng := rand.New(rand.NewPCG(5, 6))
	end := playOut(t, s, id, tabs, rng)
	for _, tb := range tabs {
		tb.do("the end screen", chromedp.WaitVisible(chromedp.ID("rematch")))
	}
	ada.checkAccessible("the end screen")
	ada.fitsWidth("the end screen", 360)

	// A rematch is an offer (docs/api-matches.md, "Consent"): Ada's seat is taken, Bob's waits for him.
	ada.do("rematch", chromedp.Click(chromedp.ID("rematch")))
	next := pollAcross[string](ada, "the next match", fmt.Sprintf(`location.pathname !== "/play/%s" && !!document.getElementById("table").dataset.status && !document.getElementById("seat-box").hidden && location.pathname.split("/")[2]`, id))
	if v := s.view(id, ""); v.NextMatchID != next {
		t.Fatalf("Ada went to %s, the finished match names %q as its rematch", next, v.NextMatchID)
	}
	if v := s.view(next, ""); v.Status != "waiting" || v.Seats[1].ReservedFor == nil || v.Seats[1].ReservedFor.Name != "Bob" {
		t.Fatalf("the rematch before Bob answers is %s, seat 1 %+v", v.Status, v.Seats[1])
	}
	// Ada's table of the offer says whom it waits for, by name.
	if turn := poll[string](ada, "the offer's table", `document.getElementById("table").dataset.status === "waiting" && document.getElementById("turn").textContent`); turn != "Waiting for Bob. Bob has not answered yet." {
		t.Errorf("the offer's table says %q", turn)
	}
	// Bob learns of it on his end screen without a reload, and his button accepts and takes
	// him there; his acceptance deals, which Ada's table hears of live.
	poll[bool](bob, "the rematch offered", `document.getElementById("rematch-note").textContent === "Ada offers a rematch: the same players, a new deal."`)
	bob.clickWhen("accept the rematch", "#rematch-accept")
	pollAcross[bool](bob, "Bob at the next match", fmt.Sprintf(`location.pathname === "/play/%s" && !document.getElementById("seat-box").hidden`, next))
	poll[bool](ada, "the rematch dealt, live", `document.getElementById("table").dataset.status === "in_progress"`)
	for seat, tb := range tabs {
		if who := eval[string](tb, `document.getElementById("seat-who").textContent`); !strings.Contains(who, fmt.Sprintf("(seat %d)", seat)) {
			t.Errorf("seat %d's table in the rematch says %q", seat, who)
		}
	}
	t.Logf("the challenge ended %v; the rematch is %s", end.Scores, next)

	// On the home page the seat to move finds the rematch under "Your turn", the other under
	// its matches; the finished challenge says who won, with its replay and its rematch.
	nv := s.view(next, "")
	if nv.Turn == nil {
		t.Fatalf("the rematch is %s with no seat to move", nv.Status)
	}
	for seat, tb := range tabs {
		tb.do("home", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("signed-in")))
		list := "my-matches"
		if seat == *nv.Turn {
			list = "my-turns"
		}
		poll[bool](tb, "the rematch listed", fmt.Sprintf(`!!document.querySelector('#%s li[data-id=%q] a[href="/play/%s"]')`, list, next, next))
		won := "Lost"
		if *end.WinnerSide == seat {
			won = "Won"
		}
		item := poll[string](tb, "the challenge listed", fmt.Sprintf(`(document.querySelector('#my-matches li[data-id=%q]') || {}).textContent`, id))
		// From the player's side: its own score first ("Won 50 to 15 against Ada").
		mine, theirs := end.Scores[seat], end.Scores[1-seat]
		if !strings.HasPrefix(item, fmt.Sprintf("%s %d to %d against ", won, mine, theirs)) || !strings.Contains(item, "replay") || !strings.Contains(item, "rematch") {
			t.Errorf("seat %d lists the finished challenge as %q", seat, item)
		}
	}

	// Every address the two pages asked for, streams included, is free of keys and tokens:
	// streams carry single-use tickets.
	var secrets []string
	for _, tb := range tabs {
		secrets = append(secrets, tb.secrets()...)
	}
	if len(secrets) < 4 {
		t.Fatalf("the browsers keep %d secrets, want two keys and the seats' tokens", len(secrets))
	}
	streams := 0
	playerTickets := map[string]bool{}
	for _, u := range sent.all() {
		if _, q, ok := strings.Cut(u, "/players/me/stream?ticket="); ok {
			if playerTickets[q] {
				t.Errorf("a ticket to the player's stream was used twice: %s", u)
			}
			playerTickets[q] = true
		}
		for _, sec := range secrets {
			if strings.Contains(u, sec) {
				t.Errorf("a page asked for an address holding a secret: %s", u)
			}
		}
		if strings.Contains(u, "token=") || strings.Contains(u, "key=") {
			t.Errorf("a page sent a credential in an address: %s", u)
		}
		if strings.Contains(u, "/stream?") {
			streams++
			if !strings.Contains(u, "ticket=") { // every page here holds a seat or a key
				t.Errorf("a stream was opened without a ticket: %s", u)
			}
		}
	}
	if streams == 0 {
		t.Error("no stream was recorded: the check is blind")
	}
	if len(playerTickets) < 3 { // Ada's, Bob's, and Bob's again after the cut at least
		t.Errorf("the player's streams were opened with %d tickets", len(playerTickets))
	}
}

// TestPlayerKeyInTheBrowser signs up, refuses a name taken (ignoring case) and a wrong key
// with the API's words, shows the key only when asked, signs out and in again with the key
// pasted, and challenges a player by id, who accepts at the table rather than from the list.
func TestPlayerKeyInTheBrowser(t *testing.T) {
	t.Parallel()
	s := newPlayersSite(t)
	b := newBrowser(t)
	cy, dee := b.tab(false), b.tab(true)
	cy.expectConsole("status of 409")
	cy.expectConsole("status of 401")
	cy.expectConsole("status of 404")
	cy.signUp(s.url, "Cy")
	cy.checkAccessible("home, signed in")
	if strings.Contains(eval[string](cy, `document.documentElement.outerHTML`), "afk_") {
		t.Error("the page holds the key before it is asked for")
	}
	cy.do("show the key", chromedp.Click(chromedp.ID("show-key")))
	key := eval[string](cy, `document.getElementById("me-key").textContent`)
	if !strings.HasPrefix(key, "afk_") {
		t.Fatalf("the key shown is %q", key)
	}
	var who api.PlayerView
	s.call("GET", "/api/v1/players/me", key, nil, &who)
	if who.Name != "Cy" || !strings.Contains(eval[string](cy, `document.getElementById("me-id").textContent`), who.ID) {
		t.Errorf("the key shown is %s's", who.Name)
	}

	// Replacing the key shows the new one and keeps it; the old one is refused from now on.
	cy.do("replace the key", chromedp.Click(chromedp.ID("rotate-key")))
	rotated := poll[string](cy, "the new key", fmt.Sprintf(`(() => {
  const k = document.getElementById("me-key").textContent, e = document.getElementById("error");
  return !e.hidden ? "error: " + e.textContent : k !== %s && k.startsWith("afk_") && k;
})()`, jsonString(key)))
	if !strings.HasPrefix(rotated, "afk_") {
		t.Fatalf("replacing the key: %s", rotated)
	}
	if kept := eval[string](cy, `JSON.parse(localStorage.getItem("allfives:player")).key`); kept != rotated {
		t.Errorf("the browser keeps %q after the rotation, not the new key", kept)
	}
	s.call("GET", "/api/v1/players/me", rotated, nil, &who)
	key = rotated

	dee.do("a name taken",
		chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("signup-name")),
		chromedp.SendKeys(chromedp.ID("signup-name"), "CY"),
		chromedp.Click(chromedp.CSS(`#signup button[type=submit]`)))
	dee.expectConsole("status of 409")
	msg := poll[string](dee, "the refusal", `!document.getElementById("error").hidden && document.getElementById("error").textContent`)
	if !strings.Contains(msg, "name") || eval[bool](dee, `localStorage.getItem("allfives:player") !== null`) {
		t.Errorf("a name taken shows %q, or was kept", msg)
	}

	cy.do("sign out", chromedp.Click(chromedp.ID("signout")), chromedp.WaitVisible(chromedp.ID("signup")))
	if eval[bool](cy, `localStorage.getItem("allfives:player") !== null`) {
		t.Error("signing out keeps the key")
	}
	cy.do("a wrong key",
		chromedp.SendKeys(chromedp.ID("key-input"), "afk_not-a-key"),
		chromedp.Click(chromedp.CSS(`#signin button[type=submit]`)))
	poll[string](cy, "the refusal", `!document.getElementById("error").hidden && document.getElementById("error").textContent`)
	cy.do("the key pasted",
		chromedp.SendKeys(chromedp.ID("key-input"), key),
		chromedp.Click(chromedp.CSS(`#signin button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("signed-in")))
	if !eval[bool](cy, `document.getElementById("error").hidden`) {
		t.Error("the refusal stays after signing in")
	}

	cy.do("challenge no one",
		chromedp.SendKeys(chromedp.ID("opponent"), "Nobody"),
		chromedp.Click(chromedp.CSS(`#challenge button[type=submit]`)))
	if msg := poll[string](cy, "the refusal", `!document.getElementById("error").hidden && document.getElementById("error").textContent`); !strings.Contains(strings.ToLower(msg), "player") {
		t.Errorf("challenging an unknown name shows %q", msg)
	}

	var deeP api.CreatePlayerResponse
	s.call("POST", "/api/v1/players", "", api.CreatePlayerRequest{Name: "Dee"}, &deeP)
	cy.do("challenge Dee by id",
		setInput("opponent", deeP.Player.ID),
		chromedp.Click(chromedp.CSS(`#challenge button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("hand")))
	id := eval[string](cy, `location.pathname.split("/")[2]`)

	dee.do("Dee pastes her key",
		setInput("key-input", deeP.Key),
		chromedp.Click(chromedp.CSS(`#signin button[type=submit]`)))
	// The lists are drawn again as the player's stream speaks: the link is found and clicked in
	// one step of the page, never a node found before a redraw.
	dee.clickWhen("the challenge's link", fmt.Sprintf(`#my-challenges li[data-id=%q] a`, id))
	dee.do("the challenged table", chromedp.WaitVisible(chromedp.ID("accept")))
	if text := eval[string](dee, `document.getElementById("challenge-text").textContent`); !strings.HasPrefix(text, "Cy challenged you, Dee") {
		t.Errorf("the table says %q", text)
	}
	if !eval[bool](dee, `document.getElementById("join-box").hidden && document.getElementById("seat-form-box").hidden`) {
		t.Error("the challenged table also offers the join or token forms")
	}
	dee.checkAccessible("the table of a challenge")
	dee.do("accept at the table", chromedp.Click(chromedp.ID("accept")), chromedp.WaitVisible(chromedp.ID("hand")))
	poll[bool](cy, "the deal, live", `document.getElementById("table").dataset.status === "in_progress"`)
	v := s.view(id, deeP.Key)
	if v.You == nil || v.You.Seat != 1 || v.Seats[1].Player != deeP.Player.ID {
		t.Fatalf("after the accept Dee's key reads %+v", v.You)
	}
}
