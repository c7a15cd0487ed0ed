package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/bot"
)

// newGatedSite is the whole server with the match lists (GET /api/v1/matches) held back until
// release is called, so a test sees the home page before its data arrives.
func newGatedSite(t *testing.T) (*site, func()) {
	t.Helper()
	inner := apitest.Server(t, 7)
	gate := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(gate) }) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/matches" {
			select {
			case <-gate:
			case <-r.Context().Done():
				return
			}
		}
		inner.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(release) // before Close, which waits for the held requests
	return &site{t: t, url: srv.URL, srv: srv}, release
}

// listTexts is the text of each item of the home page's three lists.
const listTexts = `["lobby", "live-matches", "finished"].map((id) => [...document.querySelectorAll("#" + id + " li")].map((li) => li.textContent))`

// seatNumbers is every seat number the page's visible text names ("seat 1", "Seat 0", "seats
// 0 and 2").
const seatNumbers = `(() => {
  const out = [];
  for (const m of document.body.innerText.matchAll(/\bseats? (\d+)(?: and (\d+))?/gi)) out.push(Number(m[1]), ...(m[2] ? [Number(m[2])] : []));
  return out;
})()`

// TestHomeForANewcomer: before the lists arrive each says it is loading, and an empty one says
// none yet; the form counts seats from 0 as the API does, and offers every bot strategy the
// API's document names (pimc included), strongest first as the ladder measured them, of which
// a pimc bot is created.
func TestHomeForANewcomer(t *testing.T) {
	t.Parallel()
	s, release := newGatedSite(t)
	b := newBrowser(t)
	tb := b.tab(false)
	tb.do("open home", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("create")))
	loading := eval[[][]string](tb, listTexts)
	for i, items := range loading {
		if !slices.Equal(items, []string{"Loading…"}) {
			t.Errorf("list %d reads %q before its data arrives, want Loading…", i, items)
		}
	}
	if eval[bool](tb, `document.getElementById("lobby").hidden`) {
		t.Error("the lobby is hidden on a server with open seats")
	}
	labels := eval[[]string](tb, `[...document.querySelectorAll(".player-row > label:first-child")].map((l) => l.textContent)`)
	if !slices.Equal(labels, []string{"Seat 0", "Seat 1", "Seat 2", "Seat 3"}) {
		t.Errorf("the form's seats are %q, not counted from 0 as the API counts them", labels)
	}
	if p := eval[string](tb, `document.querySelector("label[for=partnerships]").textContent`); !strings.Contains(p, "seats 0 and 2 against 1 and 3") {
		t.Errorf("the partnerships are said as %q", p)
	}
	want := []string{"human"}
	for _, name := range slices.Backward(bot.WeakestFirst()) {
		want = append(want, "bot:"+name)
	}
	want = append(want, "open")
	for i := range 4 {
		if got := eval[[]string](tb, fmt.Sprintf(`[...document.getElementById("kind-%d").options].map((o) => o.value)`, i)); !slices.Equal(got, want) {
			t.Errorf("seat %d may be played by %v, want %v (the server's strategies, strongest first)", i, got, want)
		}
	}

	release()
	empty := poll[[][]string](tb, "the empty lists", `(() => { const l = `+listTexts+`; return l.every((x) => x[0] !== "Loading…") && l; })()`)
	for i, items := range empty {
		if !slices.Equal(items, []string{"None yet."}) {
			t.Errorf("empty list %d reads %q, want None yet.", i, items)
		}
	}

	tb.do("a match against a pimc bot",
		setInput("name-0", "Ann"), setSelect("kind-1", "bot:pimc"),
		chromedp.Click(chromedp.CSS(`#create button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("table-link")),
	)
	if got := eval[string](tb, `document.getElementById("created").textContent`); !strings.Contains(got, "You sit at seat 0 (Ann)") {
		t.Errorf("the create answer reads %q", got)
	}
	id := strings.TrimPrefix(eval[string](tb, `document.getElementById("table-link").getAttribute("href")`), "/play/")
	if v := s.view(id, ""); v.Seats[1].Kind != "bot" || v.Seats[1].Bot != "pimc" {
		t.Errorf("the form's pimc bot is seated as %+v", v.Seats[1])
	}
	for _, n := range eval[[]int](tb, seatNumbers) {
		if n > 3 {
			t.Errorf("the home page names seat %d", n)
		}
	}
}

// TestOpenSeatForANewcomer creates a match with an open seat from the home page: the invite,
// the table, its log and the join form all call the open seat seat 1, as the API does, and the
// log says the match was created for "an open seat", not for a blank name.
func TestOpenSeatForANewcomer(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	host, guest := b.tab(false), b.tab(true)
	host.do("create a match with an open seat",
		chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("create")),
		setInput("name-0", "Lobbyhost"), setSelect("kind-1", "open"),
		chromedp.Click(chromedp.CSS(`#create button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("table-link")),
	)
	created := eval[string](host, `document.getElementById("created").textContent`)
	if !strings.Contains(created, "Seat 1: invite link") || !strings.Contains(created, "You sit at seat 0 (Lobbyhost)") {
		t.Errorf("the create answer reads %q", created)
	}
	host.do("go to the table", chromedp.Click(chromedp.ID("table-link")), chromedp.WaitVisible(chromedp.ID("hand")))
	id := eval[string](host, `location.pathname.split("/")[2]`)
	turn := poll[string](host, "waiting", `document.getElementById("table").dataset.status === "waiting" && document.getElementById("turn").textContent`)
	if turn != "Seat 1 is open to anyone." {
		t.Errorf("the table says %q", turn)
	}
	log := poll[string](host, "the log", `document.querySelectorAll("#log li").length > 0 && document.getElementById("log").textContent`)
	if w := "Match created for Lobbyhost, an open seat (seat 1): first to 250."; !strings.Contains(log, w) {
		t.Errorf("the log reads %q, want %q", log, w)
	}
	if seat := eval[string](host, `document.querySelector("#seats li[data-seat='1']").textContent`); !strings.HasPrefix(seat, "seat 1: 0 tiles") || !strings.Contains(seat, "open seat") {
		t.Errorf("the open seat is listed as %q", seat)
	}
	if title := eval[string](host, `document.title`); title != "Lobbyhost v seat 1 · All Fives" {
		t.Errorf("the table's title is %q", title)
	}
	for _, n := range eval[[]int](host, seatNumbers) {
		if n > 1 {
			t.Errorf("a table of two seats names seat %d", n)
		}
	}

	guest.do("open the table", chromedp.Navigate(s.url+"/play/"+id), chromedp.WaitVisible(chromedp.ID("join-seat")))
	if opts := eval[[]string](guest, `[...document.getElementById("join-seat").options].map((o) => o.value + " " + o.textContent)`); !slices.Equal(opts, []string{"1 Seat 1"}) {
		t.Errorf("the join form offers %q", opts)
	}
}

// TestReplayOpensOnTheFirstDeal: a finished match's replay opened without ?step= shows the
// first deal (the first hand.started), every hand dealt, not the empty table of match.created;
// ?step=1 still opens on the creation.
func TestReplayOpensOnTheFirstDeal(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	m := s.create(100, seed1, "bot:greedy", "bot:random").Match
	var exp struct {
		Events []struct {
			Seq  int    `json:"seq"`
			Type string `json:"type"`
		} `json:"events"`
	}
	s.call("GET", "/api/v1/matches/"+m.ID+"/export", "", nil, &exp)
	deal := slices.IndexFunc(exp.Events, func(e struct {
		Seq  int    `json:"seq"`
		Type string `json:"type"`
	}) bool {
		return e.Type == "hand.started"
	})
	if deal < 0 {
		t.Fatal("the match has no deal")
	}
	first := strconv.Itoa(exp.Events[deal].Seq)
	b := newBrowser(t)
	tb := b.tab(false)
	tb.do("open the replay", chromedp.Navigate(s.url+"/replay/"+m.ID))
	got := poll[replayShown](tb, "the first deal", `document.getElementById("replay").dataset.step !== "0" && `+readReplay)
	if got.Step != first || !strings.HasPrefix(got.Event, "Hand 1 dealt") || !strings.HasSuffix(got.URL, "?step="+first) {
		t.Errorf("the replay opens on step %s (%q, %s), want the first deal, step %s", got.Step, got.Event, got.URL, first)
	}
	for seat, tiles := range got.Hands {
		if len(tiles) != 7 {
			t.Errorf("at the first deal seat %d shows %v", seat, tiles)
		}
	}
	tb.do("ask for step 1", chromedp.Navigate(s.url+"/replay/"+m.ID+"?step=1"))
	got = poll[replayShown](tb, "step 1", `document.getElementById("replay").dataset.step === "1" && `+readReplay)
	if !regexp.MustCompile(`^Match created for Ada, Bo: first to 100`).MatchString(got.Event) {
		t.Errorf("step 1 reads %q", got.Event)
	}
}
