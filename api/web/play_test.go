package web_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/allfives/allfives/api"
)

// tableState is what the table offers its seat when it is that seat's turn.
type tableState struct {
	Status  string   `json:"status"`
	Version int      `json:"version"`
	Legal   []string `json:"legal"`
	Draw    bool     `json:"draw"`
	Pass    bool     `json:"pass"`
}

// myTurn is truthy once the table is idle and either finished or waiting for this seat.
const myTurn = `(() => {
  const m = document.getElementById("table");
  if (m.dataset.busy === "1") return null;
  if (m.dataset.status === "finished") return { status: "finished", version: Number(m.dataset.version) };
  if (m.dataset.myTurn !== "1") return null;
  return {
    status: m.dataset.status, version: Number(m.dataset.version),
    legal: [...document.querySelectorAll("#hand button.legal")].map((b) => b.dataset.tile),
    draw: !document.getElementById("draw").hidden, pass: !document.getElementById("pass").hidden,
  };
})()`

// takeSeat opens the table and enters the seat's token in the page's form, as a person would.
// A token the API refuses must leave the page as it was, showing the problem's detail.
func (tb *tab) takeSeat(url, token string) {
	tb.t.Helper()
	tb.do("take a seat",
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.ID("token-input")),
		chromedp.SendKeys(chromedp.ID("token-input"), token),
		chromedp.Click(chromedp.CSS(`#seat-form button[type=submit]`)),
	)
	if !strings.HasPrefix(token, "not-") {
		tb.do("seated", chromedp.WaitVisible(chromedp.ID("hand")))
		return
	}
	shown := poll[string](tb, "the refusal", `!document.getElementById("error").hidden && document.getElementById("error").textContent`)
	req, _ := http.NewRequest("GET", strings.Replace(url, "/play/", "/api/v1/matches/", 1), nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.t.Fatal(err)
	}
	defer res.Body.Close()
	var p struct {
		Detail string `json:"detail"`
	}
	if err := json.NewDecoder(res.Body).Decode(&p); err != nil || res.StatusCode != 401 || shown != p.Detail {
		tb.t.Errorf("a wrong token shows %q, the API answers %d %q", shown, res.StatusCode, p.Detail)
	}
	if !eval[bool](tb, `document.getElementById("seat-box").hidden && localStorage.length === 0`) {
		tb.t.Error("a wrong token seated the page or was kept")
	}
}

// playOne waits for this seat's turn and makes one move by clicking: a highlighted tile chosen
// by rng (and an end, when the page asks), or draw, or pass. It answers false once the match
// is finished.
func (tb *tab) playOne(rng *rand.Rand) bool {
	return tb.playOneAfter(rng, nil)
}

// playOneAfter is playOne that first shows the state it is about to act on to look.
func (tb *tab) playOneAfter(rng *rand.Rand, look func(tableState)) bool {
	return tb.play(rng, look, false)
}

// play makes one move as playOne, by the mouse or, with keys, by the keyboard alone: focus on
// the tile and Enter, then Enter again on the end the page offers first when it asks.
func (tb *tab) play(rng *rand.Rand, look func(tableState), keys bool) bool {
	tb.t.Helper()
	// A person looks at the page they play on: a tab in the background may not take input.
	if _, err := chromedp.Call(tb.ctx, page.BringToFront, cdp.Empty{}); err != nil {
		tb.t.Fatal(err)
	}
	st := poll[tableState](tb, "my turn", myTurn)
	if st.Status == "finished" {
		return false
	}
	if look != nil {
		look(st)
	}
	switch {
	case len(st.Legal) > 0:
		tile := st.Legal[rng.IntN(len(st.Legal))]
		sel := chromedp.CSS(fmt.Sprintf(`#hand button[data-tile=%q]`, tile))
		if keys {
			tb.do("press Enter on "+tile, chromedp.Focus(sel), chromedp.KeyEvent(kb.Enter))
			if eval[bool](tb, `!document.getElementById("end-choice").hidden`) {
				if end := eval[string](tb, `document.activeElement.dataset.end || ""`); end != "left" {
					tb.t.Fatalf("the question of the end has the focus on %q, not the first end", end)
				}
				tb.do("press Enter on the first end", chromedp.KeyEvent(kb.Enter))
			}
			break
		}
		tb.do("click "+tile, chromedp.Click(sel))
		if eval[bool](tb, `!document.getElementById("end-choice").hidden`) {
			end := []string{"left", "right"}[rng.IntN(2)]
			tb.do("choose the "+end, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#end-choice button[data-end=%q]`, end))))
		}
	case st.Draw:
		tb.do("draw", chromedp.Click(chromedp.ID("draw")))
	case st.Pass:
		tb.do("pass", chromedp.Click(chromedp.ID("pass")))
	default:
		tb.t.Fatalf("my turn at version %d offers no move", st.Version)
	}
	poll[bool](tb, "the move's answer", fmt.Sprintf(
		`document.getElementById("table").dataset.busy === "0" && (document.getElementById("table").dataset.version !== "%d" || !document.getElementById("error").hidden)`, st.Version))
	if msg := eval[string](tb, `document.getElementById("error").hidden ? "" : document.getElementById("error").textContent`); msg != "" {
		tb.t.Fatalf("the move was refused: %s", msg)
	}
	return true
}

// TestPlayAgainstExpertByClicking plays a whole two-player match against the expert bot by
// clicking only, to the end screen, and checks the final score and the winner against the API.
func TestPlayAgainstExpertByClicking(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	created := s.create(60, seed1, "Ann", "bot:expert")
	id, token := created.Match.ID, created.Tokens[0].Token
	tb := b.tab(false)
	// A wrong token is refused with the API's own words, and nothing is kept.
	tb.expectConsole("status of 401")
	tb.takeSeat(s.url+"/play/"+id, "not-a-token")
	tb.takeSeat(s.url+"/play/"+id, token)
	tb.checkAccessible("table")
	tb.fitsWidth("the table", 360)
	rng := rand.New(rand.NewPCG(1, 2))
	moves, shot := 0, false
	look := func(st tableState) {
		if !shot && moves >= 5 && len(st.Legal) >= 2 { // a picture of a line with moves to choose from
			tb.screenshot("table-desktop", 1280, 900)
			tb.screenshot("table-phone", 390, 844)
			shot = true
		}
	}
	for tb.playOneAfter(rng, look) {
		moves++
		if moves > 500 {
			t.Fatal("the match did not end in 500 moves")
		}
	}
	v := s.view(id, token)
	if v.Status != "finished" || v.WinnerSide == nil {
		t.Fatalf("the page shows the end while the API says %s", v.Status)
	}
	tb.do("the end screen", chromedp.WaitVisible(chromedp.ID("result")))
	scores := eval[[]int](tb, `[...document.querySelectorAll("#scores .points")].map((e) => Number(e.textContent))`)
	if !slices.Equal(scores, v.Scores) {
		t.Errorf("the final scores shown are %v, the API's %v", scores, v.Scores)
	}
	text := eval[string](tb, `document.getElementById("result-text").textContent`)
	// Said from Ann's side, her own score first.
	outcome := "lost"
	if *v.WinnerSide == 0 {
		outcome = "won"
	}
	want := fmt.Sprintf("You %s %d to %d against Bo.", outcome, v.Scores[0], v.Scores[1])
	if !strings.HasPrefix(text, want) {
		t.Errorf("the end screen reads %q, want %q", text, want)
	}
	if href := eval[string](tb, `document.getElementById("replay-link").getAttribute("href")`); href != "/replay/"+id {
		t.Errorf("the end screen links to %q, not the replay", href)
	}
	t.Logf("%d moves by clicking; final scores %v", moves, v.Scores)

	// The rematch button, with no player signed in: the seat's token asks for the next match,
	// the answer's new token is kept, and the page opens the next match seated.
	tb.do("rematch", chromedp.Click(chromedp.ID("rematch")))
	next := pollAcross[string](tb, "the rematch", fmt.Sprintf(`location.pathname !== "/play/%s" && !document.getElementById("seat-box").hidden && document.getElementById("table").dataset.status === "in_progress" && location.pathname.split("/")[2]`, id))
	if again := s.view(id, ""); again.NextMatchID != next {
		t.Errorf("the rematch button went to %s, the finished match names %q", next, again.NextMatchID)
	}
	if who := eval[string](tb, `document.getElementById("seat-who").textContent`); who != "You are Ann (seat 0)." {
		t.Errorf("the rematch's table says %q", who)
	}
}

// tileIn finds a tile's name, in either pip order, standing alone in a page's HTML.
func tileIn(html, tile string) bool {
	a, b, _ := strings.Cut(tile, "-")
	re := regexp.MustCompile(`(^|[^0-9])(` + a + "-" + b + "|" + b + "-" + a + `)([^0-9]|$)`)
	return re.MatchString(html)
}

// TestTwoHumansLive seats two people in two browser contexts: each sees the other's moves
// arrive live over the stream, also after the connections are cut, and neither page ever
// holds a tile of the other's hand. Ben plays by the keyboard alone. The streams are opened
// with single-use tickets, a new one for each connection, and no address carries a token.
func TestTwoHumansLive(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	created := s.create(250, seed1, "Ann", "Ben")
	id := created.Match.ID
	tokens := []string{created.Tokens[0].Token, created.Tokens[1].Token}
	tabs := []*tab{b.tab(false), b.tab(true)}
	var sent urls
	for _, tb := range tabs {
		sent.record(tb)
	}
	for seat, tb := range tabs {
		tb.takeSeat(s.url+"/play/"+id, tokens[seat])
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 6 {
		if i == 3 {
			// Cut every connection, the streams' included: EventSource reconnects by itself
			// and resumes after the last event it got, so the moves after still arrive live.
			for _, tb := range tabs { // the browser logs the cut stream as an error
				tb.expectConsole("net::ERR_INCOMPLETE_CHUNKED_ENCODING at " + s.url + "/api/v1/matches/" + id + "/stream?")
			}
			s.srv.CloseClientConnections()
		}
		v := s.view(id, "")
		mover := v.Hand.Turn
		tabs[mover].play(rng, nil, mover == 1) // Ben plays by the keyboard alone
		after := s.view(id, "")
		for seat, tb := range tabs {
			// Each page reaches the API's version without a reload: the other's by the stream.
			got := poll[string](tb, "the move, live", fmt.Sprintf(
				`document.getElementById("table").dataset.version === "%d" && document.getElementById("table").dataset.busy === "0" && document.getElementById("log").textContent`, after.Version))
			line := eval[[]string](tb, `[...document.querySelectorAll("#line [data-tile]")].map((e) => e.dataset.tile)`)
			if !slices.Equal(line, after.Hand.Line) {
				t.Errorf("seat %d sees the line %v, the API %v", seat, line, after.Hand.Line)
			}
			if seat != mover && !strings.Contains(got, v.Seats[mover].Name) {
				t.Errorf("seat %d's log does not tell %s's move: %q", seat, v.Seats[mover].Name, got)
			}
			other := s.view(id, tokens[1-seat])
			html := eval[string](tb, `document.documentElement.outerHTML`)
			for _, tile := range other.You.Tiles {
				if tileIn(html, tile) {
					t.Fatalf("seat %d's page holds %s, a tile of the other hand", seat, tile)
				}
			}
			mine := eval[[]string](tb, `[...document.querySelectorAll("#hand [data-tile]")].map((e) => e.dataset.tile)`)
			own := s.view(id, tokens[seat]).You.Tiles
			if !slices.Equal(mine, own) {
				t.Errorf("seat %d's hand shows %v, the API %v", seat, mine, own)
			}
			for _, tile := range own { // the search above finds a tile the page does hold
				if !tileIn(html, tile) {
					t.Fatalf("seat %d's own %s is not found in its page: the leak check is blind", seat, tile)
				}
			}
		}
	}
	tickets := map[string]bool{}
	for _, u := range sent.all() {
		for _, tok := range tokens {
			if strings.Contains(u, tok) || strings.Contains(u, "token=") {
				t.Errorf("a page sent a seat token in an address: %s", u)
			}
		}
		if _, q, ok := strings.Cut(u, "/stream?"); ok {
			// Before its token is entered a page watches as a spectator, with no ticket.
			ticket := regexp.MustCompile(`ticket=([^&]+)`).FindStringSubmatch(q)
			if ticket == nil {
				continue
			} else if tickets[ticket[1]] {
				t.Errorf("a ticket was used twice: %s", u)
			} else {
				tickets[ticket[1]] = true
			}
		}
	}
	if len(tickets) < 4 { // each page's stream, and again after the cut
		t.Errorf("the pages opened %d streams with tickets, want two each at least", len(tickets))
	}
	counts := eval[[]string](tabs[0], `[...document.querySelectorAll("#seats li")].map((e) => e.textContent)`)
	v := s.view(id, "")
	for seat, line := range counts {
		if !strings.Contains(line, strconv.Itoa(v.Seats[seat].Tiles)+" tile") {
			t.Errorf("seat %d's count reads %q, the API says %d tiles", seat, line, v.Seats[seat].Tiles)
		}
	}
}

// TestTableWithoutTickets seats a page on a server without players, and so without stream
// tickets: the table follows the match as a spectator's stream does, reads its own seat's view
// after each event, and still never puts the token in an address.
func TestTableWithoutTickets(t *testing.T) {
	t.Parallel()
	s := newSiteWithoutPlayers(t)
	b := newBrowser(t)
	created := s.create(250, seed1, "Ann", "Ben")
	id := created.Match.ID
	tb := b.tab(false)
	var sent urls
	sent.record(tb)
	tb.expectConsole("status of 404 (Not Found) at " + s.url + "/api/v1/matches/" + id + "/tickets")
	tb.takeSeat(s.url+"/play/"+id, created.Tokens[0].Token)
	rng := rand.New(rand.NewPCG(7, 8))
	for range 4 {
		v := s.view(id, "")
		if v.Hand.Turn == 0 {
			tb.play(rng, nil, false)
			continue
		}
		var lm api.LegalMovesResponse
		s.call(http.MethodGet, "/api/v1/matches/"+id+"/legal-moves", created.Tokens[1].Token, nil, &lm)
		m := lm.LegalMoves[0]
		req := api.MoveRequest{Action: m.Action}
		if m.Action == "play" {
			req.Tile, req.End = &m.Tile, &m.End
		}
		s.call(http.MethodPost, "/api/v1/matches/"+id+"/moves", created.Tokens[1].Token, req, nil)
		after := s.view(id, "")
		poll[bool](tb, "Ben's move, live", fmt.Sprintf(`document.getElementById("table").dataset.version === "%d"`, after.Version))
	}
	for _, u := range sent.all() {
		if strings.Contains(u, created.Tokens[0].Token) || strings.Contains(u, "token=") {
			t.Errorf("the page sent its token in an address: %s", u)
		}
	}
}
