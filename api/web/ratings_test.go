package web_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/sqlite"
)

// quickBots plays every strategy's name with random or greedy, so that rated matches of
// distinct bots end in milliseconds; the bots are still the players bot-random...bot-expert.
func quickBots() map[string]domain.Strategy {
	return map[string]domain.Strategy{
		bot.NameRandom: bot.NewRandom(3), bot.NameGreedy: bot.NewGreedy(),
		bot.NamePIMC: bot.NewGreedy(), bot.NameExpert: bot.NewRandom(4),
	}
}

// newRatedSite is the server with players, reviews and ratings over a real SQLite file, and the
// projection that rates its matches, run by the test (Drain) rather than by a timer.
func newRatedSite(t *testing.T) (*site, *ratings.Projector) {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "allfives.db"), sqlite.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	people := players.NewService(players.Config{Store: store})
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: quickBots(), Players: people})
	t.Cleanup(svc.Close)
	reviews := reviews.New(reviews.Config{Store: store, Matches: svc, Options: apitest.SmallReview})
	t.Cleanup(reviews.Close)
	srv := httptest.NewServer(api.New(api.Config{Service: svc, Players: people, Reviews: reviews, Ratings: ratings.NewService(store), Ready: store}))
	t.Cleanup(srv.Close)
	return &site{t: t, url: srv.URL, srv: srv}, ratings.NewProjector(ratings.Config{Store: store, Logs: store})
}

// newPlayer signs a player up through the API.
func (s *site) newPlayer(name string) api.CreatePlayerResponse {
	s.t.Helper()
	var p api.CreatePlayerResponse
	s.call(http.MethodPost, "/api/v1/players", "", api.CreatePlayerRequest{Name: name}, &p)
	return p
}

// ratedVsBot creates a rated two-player match of a player (by its key) against a bot, at a
// target of 5, and answers it with the player's seat token.
func (s *site) ratedVsBot(key, strategy string) (string, string) {
	s.t.Helper()
	target := 5
	req := api.CreateMatchRequest{Rated: true, Target: &target, Players: []api.PlayerRequest{
		{Kind: "human", Player: "me"}, {Name: "Bot " + strategy, Kind: "bot", Bot: strategy},
	}}
	var out api.CreateMatchResponse
	s.call(http.MethodPost, "/api/v1/matches", key, req, &out)
	if len(out.Tokens) != 1 {
		s.t.Fatalf("a rated match against a bot has %d tokens", len(out.Tokens))
	}
	return out.Match.ID, out.Tokens[0].Token
}

// playSeat plays a seat's first legal move until the match is over (the bots answer within
// each move), and answers the finished view.
func (s *site) playSeat(id, token string) api.MatchView {
	s.t.Helper()
	for range 2000 {
		v := s.view(id, token)
		if v.Status == "finished" {
			return v
		}
		if len(v.LegalMoves) == 0 {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		s.move(id, token, v.LegalMoves[0])
	}
	s.t.Fatalf("match %s did not end", id)
	return api.MatchView{}
}

// botMatch creates a rated match of distinct bots, which they play to its end at once.
func (s *site) botMatch(partnerships bool, strategies ...string) {
	s.t.Helper()
	target := 5
	req := api.CreateMatchRequest{Rated: true, Target: &target, Partnerships: partnerships}
	for _, b := range strategies {
		req.Players = append(req.Players, api.PlayerRequest{Name: "Bot " + b, Kind: "bot", Bot: b})
	}
	var out api.CreateMatchResponse
	s.call(http.MethodPost, "/api/v1/matches", "", req, &out)
	if out.Match.Status != "finished" {
		s.t.Fatalf("a match of bots is %s", out.Match.Status)
	}
}

// leaderboard reads a format's whole board from the API.
func (s *site) leaderboard(format string) []api.LeaderboardEntry {
	s.t.Helper()
	var res api.LeaderboardResponse
	s.call(http.MethodGet, "/api/v1/leaderboard/"+format+"?limit=100", "", nil, &res)
	if res.NextCursor != nil {
		s.t.Fatal("more than 100 ranked players")
	}
	return res.Players
}

// playerRatings reads a player's ratings and its whole history (newest first) from the API,
// page by page.
func (s *site) playerRatings(id string) api.PlayerRatingsResponse {
	s.t.Helper()
	var all api.PlayerRatingsResponse
	for cursor := ""; ; {
		var res api.PlayerRatingsResponse
		s.call(http.MethodGet, "/api/v1/players/"+id+"/ratings?limit=200"+cursor, "", nil, &res)
		all.Ratings = res.Ratings
		all.History = append(all.History, res.History...)
		if res.NextCursor == nil {
			return all
		}
		cursor = "&cursor=" + url.QueryEscape(*res.NextCursor)
	}
}

// figure and signed write figures as the client does (ratings.js): two decimals, a true
// minus sign, and a sign on a change.
func figure(x float64) string {
	r := math.Round(x*100) / 100
	if r < 0 {
		return fmt.Sprintf("−%.2f", -r)
	}
	return fmt.Sprintf("%.2f", math.Abs(r))
}

func signed(d float64) string {
	r := math.Round(d*100) / 100
	switch {
	case r == 0:
		return "±0.00"
	case r > 0:
		return fmt.Sprintf("+%.2f", r)
	}
	return fmt.Sprintf("−%.2f", -r)
}

// signIn keeps a player in the tab's browser, as the home page's sign-in does.
func (tb *tab) signIn(url string, p api.CreatePlayerResponse) {
	tb.t.Helper()
	tb.do("sign in "+p.Player.Name, chromedp.Navigate(url+"/assets/favicon.svg"))
	eval[bool](tb, fmt.Sprintf(`(localStorage.setItem("allfives:player", JSON.stringify({id: %s, name: %s, key: %s})), true)`,
		jsonString(p.Player.ID), jsonString(p.Player.Name), jsonString(p.Key)))
}

// boardRow is a leaderboard row as the page shows it.
type boardRow struct {
	Player  string `json:"player"`
	Rank    string `json:"rank"`
	Name    string `json:"name"`
	Href    string `json:"href"`
	Rating  string `json:"rating"`
	Matches string `json:"matches"`
	Wins    string `json:"wins"`
	You     bool   `json:"you"`
	Program bool   `json:"program"`
}

const boardRows = `[...document.querySelectorAll("#board-rows tr")].map((tr) => ({
  player: tr.dataset.player, rank: tr.cells[0].textContent, name: tr.cells[1].querySelector("a").textContent,
  href: tr.cells[1].querySelector("a").getAttribute("href"), rating: tr.cells[2].textContent,
  matches: tr.cells[3].textContent, wins: tr.cells[4].textContent, you: tr.classList.contains("you"),
  program: tr.cells[1].querySelector(".tag.program") !== null}))`

// checkRows compares the page's rows with the API's entries.
func checkRows(t *testing.T, page string, got []boardRow, want []api.LeaderboardEntry, you string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d: %+v", page, len(got), len(want), got)
	}
	for i, w := range want {
		r := boardRow{Player: w.Player.ID, Rank: fmt.Sprint(w.Rank), Name: w.Player.Name, Href: "/player/" + w.Player.ID,
			Rating: figure(w.Rating), Matches: fmt.Sprint(w.Matches), Wins: fmt.Sprint(w.Wins), You: w.Player.ID == you,
			Program: w.Player.Program}
		if got[i] != r {
			t.Errorf("%s: row %d is %+v, want %+v", page, i, got[i], r)
		}
	}
}

// TestRatingsPages: players and bots play rated matches through the API; then the leaderboard
// page lists the ranked ones in rating order, a page at a time, the provisional left out; the
// profile page draws one point per rated match and shows the API's figures; and the end
// screen of a rated match says each seat's rating change, once the match is rated.
func TestRatingsPages(t *testing.T) {
	t.Parallel()
	s, proj := newRatedSite(t)
	ctx := context.Background()
	ada, bo, cy, di := s.newPlayer("Ada"), s.newPlayer("Bo"), s.newPlayer("Cy"), s.newPlayer("Di")
	// 18 matches each: past the 10 matches and σ ≤ 6 of a ranked rating. Each plays a random
	// bot half the time: σ shrinks with results the model did not foresee, and a seat that
	// always plays its first legal move could lose all 18 to greedy ones and stay above 6.
	for i := range 18 {
		s.playSeat(s.ratedVsBot(ada.Key, []string{"random", "expert"}[i%2]))
		s.playSeat(s.ratedVsBot(bo.Key, []string{"random", "pimc"}[i%2]))
	}
	s.playSeat(s.ratedVsBot(cy.Key, "greedy")) // one match: provisional
	// Each pair of bots 8 times: the matches are dealt at random, and after only 9 a bot's σ
	// was seen above 6 (not ranked), leaving the board too short to page through.
	bots := []string{"random", "greedy", "pimc", "expert"}
	for range 8 {
		for i := range bots {
			for j := i + 1; j < len(bots); j++ {
				s.botMatch(false, bots[i], bots[j])
			}
		}
	}
	s.botMatch(false, "random", "greedy", "pimc") // one 3p match, all provisional
	// bot-expert's history runs over more than one page of the API's (200).
	for range 200 {
		s.botMatch(false, "expert", "random")
	}
	if _, err := proj.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	board := s.leaderboard("2p")
	ids := make([]string, len(board))
	for i, e := range board {
		ids[i] = e.Player.ID
		if i > 0 && e.Rating > board[i-1].Rating {
			t.Fatalf("the API's board is not in rating order: %+v", board)
		}
	}
	for _, want := range []string{ada.Player.ID, bo.Player.ID} {
		if !slices.Contains(ids, want) {
			t.Fatalf("%s is not ranked: %+v", want, board)
		}
	}
	for _, e := range board {
		t.Logf("2p #%d %s: rating %.2f, μ %.2f, σ %.2f, %d matches", e.Rank, e.Player.Name, e.Rating, e.Mu, e.Sigma, e.Matches)
	}
	if slices.Contains(ids, cy.Player.ID) || len(board) < 5 {
		t.Fatalf("the board %+v: want Ada, Bo and at least 3 bots, not Cy", board)
	}

	b := newBrowser(t)
	tb := b.tab(false)
	tb.expectConsole("status of 404 (Not Found)")   // the unknown player, on purpose
	tb.expectConsole("status of 400 (Bad Request)") // the unknown format, on purpose
	tb.signIn(s.url, ada)

	{ // Home
		tb.do("home", chromedp.Navigate(s.url+"/"))
		if href := poll[string](tb, "the leaderboard link", `(() => { const a = document.getElementById("leaderboard-link"); return a && a.offsetParent ? a.getAttribute("href") : ""; })()`); href != "/leaderboard/2p" {
			t.Errorf("the home page links to %q", href)
		}
		if href := poll[string](tb, "the profile link", `(() => { const a = document.getElementById("me-profile"); return a ? a.getAttribute("href") : ""; })()`); href != "/player/"+ada.Player.ID {
			t.Errorf("the You panel links the name to %q", href)
		}
		if who := eval[string](tb, `document.getElementById("me-name").textContent`); !strings.HasPrefix(who, "You are Ada (player id ") {
			t.Errorf("the You panel says %q", who)
		}
		// A rated challenge: both seats are players.
		tb.do("a rated challenge to Di",
			chromedp.WaitVisible(chromedp.ID("challenge-rated")),
			setInput("opponent", "Di"),
			setInput("challenge-target", "5"),
			chromedp.Click(chromedp.ID("challenge-rated")),
			chromedp.Click(chromedp.CSS(`#challenge button[type=submit]`)))
		id := pollAcross[string](tb, "the rated challenge's table", `location.pathname.startsWith("/play/") && !document.getElementById("rated").hidden ? location.pathname.split("/")[2] : ""`)
		// Di's seat is kept for Di, so it is open to no one else (docs/api-matches.md, "Consent").
		if v := s.view(id, ""); !v.Rated || v.Status != "waiting" || len(v.OpenSeats) != 0 || v.Seats[1].ReservedFor == nil || v.Seats[1].ReservedFor.Name != "Di" {
			t.Errorf("the challenge is rated %v, %s, open seats %v, seat 1 %+v", v.Rated, v.Status, v.OpenSeats, v.Seats[1])
		}
	}

	{ // Leaderboard
		const size = 3
		tb.do("the leaderboard", chromedp.Navigate(s.url+fmt.Sprintf("/leaderboard/2p?limit=%d", size)))
		poll[bool](tb, "the board", `document.getElementById("leaderboard").dataset.loaded === "1"`)
		if note := eval[string](tb, `document.getElementById("board-note").textContent`); !strings.Contains(note, "Provisional players") || !strings.Contains(note, "left out") {
			t.Errorf("the note says %q", note)
		}
		if cur := eval[string](tb, `document.querySelector("#formats a[aria-current=page]").dataset.format`); cur != "2p" {
			t.Errorf("the current format is %q", cur)
		}
		tb.checkAccessible("leaderboard")
		tb.fitsWidth("leaderboard", 360)
		tb.screenshot("leaderboard", 900, 700)
		for page, from := 1, 0; from < len(board); page, from = page+1, from+size {
			to := min(from+size, len(board))
			what := fmt.Sprintf("page %d", page)
			checkRows(t, what, eval[[]boardRow](tb, boardRows), board[from:to], ada.Player.ID)
			last := to == len(board)
			if shown := eval[bool](tb, `!document.getElementById("next-page").hidden`); shown == last {
				t.Fatalf("%s: the Next link shown %v on the last page %v", what, shown, last)
			}
			if first := eval[bool](tb, `!document.getElementById("first-page").hidden`); first != (page > 1) {
				t.Errorf("%s: the First page link shown %v", what, first)
			}
			if last {
				break
			}
			tb.do("next page", chromedp.Click(chromedp.ID("next-page")))
			pollAcross[bool](tb, "the next page", fmt.Sprintf(`location.search.includes("cursor=") && document.getElementById("leaderboard").dataset.loaded === "1" && document.querySelector("#board-rows tr") !== null && document.querySelector("#board-rows tr .rank").textContent === %s`, jsonString(fmt.Sprint(board[to].Rank))))
		}
		// A name leads to the player's page.
		tb.do("first page", chromedp.Click(chromedp.ID("first-page")))
		pollAcross[bool](tb, "the first page", `!location.search.includes("cursor=") && document.getElementById("leaderboard").dataset.loaded === "1"`)
		checkRows(t, "the first page again", eval[[]boardRow](tb, boardRows), board[:min(size, len(board))], ada.Player.ID)
		checkProgramsBoard(t, tb, board, ada.Player.ID)
		// 2v2 has no rated match: no one is ranked.
		tb.do("2v2", chromedp.Click(chromedp.CSS(`#formats a[data-format="2v2"]`)))
		pollAcross[bool](tb, "the 2v2 board", `location.pathname === "/leaderboard/2v2" && document.getElementById("leaderboard").dataset.loaded === "1"`)
		if st := eval[string](tb, `document.getElementById("board-status").textContent`); !strings.Contains(st, "No one is ranked") || eval[bool](tb, `!document.getElementById("board").hidden`) {
			t.Errorf("the empty board says %q", st)
		}
		// 3p had one match: every one of its players is provisional, so left out.
		tb.do("3p", chromedp.Navigate(s.url+"/leaderboard/3p"))
		poll[bool](tb, "the 3p board", `document.getElementById("leaderboard").dataset.loaded === "1"`)
		if n := eval[int](tb, `document.querySelectorAll("#board-rows tr").length`); n != 0 {
			t.Errorf("the 3p board shows %d provisional players", n)
		}
		tb.do("5p", chromedp.Navigate(s.url+"/leaderboard/5p"))
		poll[bool](tb, "the 5p board", `document.getElementById("leaderboard").dataset.loaded === "1"`)
		if e := eval[string](tb, `document.getElementById("error").textContent`); !strings.Contains(e, "format must be one of 2p, 3p, 4p, 2v2") {
			t.Errorf("an unknown format says %q", e)
		}
	}

	{ // Profile
		for _, who := range []api.CreatePlayerResponse{ada, cy, {Player: api.PlayerView{ID: "bot-greedy", Name: "bot-greedy"}}, {Player: api.PlayerView{ID: "bot-expert", Name: "bot-expert"}}} {
			checkProfile(t, s, tb, who.Player.ID, who.Player.Name)
		}
		tb.do("Ada's page", chromedp.Navigate(s.url+"/player/"+ada.Player.ID))
		poll[bool](tb, "the page", `document.getElementById("profile").dataset.loaded === "1"`)
		tb.checkAccessible("profile")
		tb.fitsWidth("profile", 360)
		// The history in figures, a wide table, reflows into cards on a phone: every figure of
		// every row on screen, nothing scrolled sideways.
		tb.do("the figures at 390 px", chromedp.EmulateViewport(390, 844), chromedp.Click(chromedp.CSS(`#format-2p details.figures-box summary`)))
		if bad := poll[[]string](tb, "the figures as cards", `!!document.querySelector("#history-2p tbody tr") && `+cutCells("#history-2p")); len(bad) > 0 {
			t.Errorf("at 390 px the rating history cuts: %v", bad)
		}
		tb.do("desktop width", chromedp.EmulateViewport(1280, 900))
		tb.screenshot("profile", 900, 900)
		// A player with no rated match, and no player at all.
		tb.do("Di's page", chromedp.Navigate(s.url+"/player/"+di.Player.ID))
		poll[bool](tb, "Di's page", `document.getElementById("profile").dataset.loaded === "1"`)
		if eval[bool](tb, `document.getElementById("no-ratings") === null`) || eval[string](tb, `document.getElementById("player-name").textContent`) != "Di" {
			t.Error("a player with no rated match: no words say so")
		}
		tb.do("nobody's page", chromedp.Navigate(s.url+"/player/nobody"))
		poll[bool](tb, "nobody's page", `document.getElementById("profile").dataset.loaded === "1"`)
		if about := eval[string](tb, `document.getElementById("about").textContent`); about != "There is no such player." {
			t.Errorf("an unknown player's page says %q", about)
		}
	}

	{ // EndScreen
		id, token := s.ratedVsBot(ada.Key, "greedy")
		tb.do("the table", chromedp.Navigate(s.url+"/play/"+id))
		poll[bool](tb, "the table", fmt.Sprintf(`document.getElementById("table").dataset.version !== "0" && document.getElementById("seat-who").textContent.startsWith("You are Ada") && !document.getElementById("rated").hidden`))
		links := eval[[]string](tb, `[...document.querySelectorAll("#seats li a.player-link")].map((a) => a.getAttribute("href"))`)
		if want := []string{"/player/" + ada.Player.ID, "/player/bot-greedy"}; !slices.Equal(links, want) {
			t.Errorf("the seats link to %v, want %v", links, want)
		}
		end := s.playSeat(id, token)
		poll[bool](tb, "the end screen", `document.getElementById("table").dataset.status === "finished" && !document.getElementById("result").hidden`)
		if st := poll[string](tb, "the note that ratings are coming", `document.getElementById("rating-status").textContent`); !strings.Contains(st, "being updated") {
			t.Errorf("before the match is rated, the end screen says %q", st)
		}
		if _, err := proj.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		v := s.view(id, "")
		if len(v.RatingChanges) != 2 {
			t.Fatalf("the rated match's changes: %+v", v.RatingChanges)
		}
		got := poll[[]string](tb, "the rating changes", `(() => { const li = [...document.querySelectorAll("#rating-changes li")]; return li.length ? li.map((x) => x.textContent + " " + x.querySelector("a").getAttribute("href")) : null; })()`)
		want := make([]string, len(v.RatingChanges))
		for i, c := range v.RatingChanges {
			name := end.Seats[c.Seat].Name
			want[i] = fmt.Sprintf("%s: %s → %s (%s) /player/%s", name, figure(c.Before.Rating), figure(c.After.Rating), signed(c.After.Rating-c.Before.Rating), c.Player)
		}
		if !slices.Equal(got, want) {
			t.Errorf("the end screen says\n%q\nwant\n%q", got, want)
		}
		if title := eval[string](tb, `document.getElementById("rating-title").textContent`); !strings.Contains(title, "(2p)") {
			t.Errorf("the changes' title is %q", title)
		}
		tb.checkAccessible("end screen")
		tb.screenshot("rated-end", 900, 900)
		// The replay's last step says them too.
		tb.do("the replay", chromedp.Navigate(fmt.Sprintf("%s/replay/%s?step=%d", s.url, id, end.Version)))
		replayed := poll[[]string](tb, "the replay's rating changes", `(() => { const li = [...document.querySelectorAll("#replay-ratings:not([hidden]) #rating-changes li")]; return li.length ? li.map((x) => x.textContent + " " + x.querySelector("a").getAttribute("href")) : null; })()`)
		if !slices.Equal(replayed, want) {
			t.Errorf("the replay's last step says\n%q\nwant\n%q", replayed, want)
		}
		tb.do("the first step", chromedp.KeyEvent(kb.Home))
		poll[bool](tb, "the first step, without the changes", `document.getElementById("replay").dataset.step === "1" && document.getElementById("replay-ratings").hidden`)
		if first := eval[string](tb, `document.getElementById("event").textContent`); !strings.HasSuffix(first, "first to 5, rated.") {
			t.Errorf("the replay says the match's creation as %q", first)
		}
	}
}

// profileFigures is what a profile's format section shows.
type profileFigures struct {
	Rating      string    `json:"rating"`
	Mu          string    `json:"mu"`
	Sigma       string    `json:"sigma"`
	Matches     string    `json:"matches"`
	Wins        string    `json:"wins"`
	Established string    `json:"established"`
	Provisional bool      `json:"provisional"`
	Points      []float64 `json:"points"`
	Rows        []string  `json:"rows"`
	Title       string    `json:"title"`
	Desc        string    `json:"desc"`
}

// checkProfile opens a player's page and compares each format's figures, chart and table
// with the API's.
func checkProfile(t *testing.T, s *site, tb *tab, id, name string) {
	t.Helper()
	want := s.playerRatings(id)
	tb.do("the page of "+name, chromedp.Navigate(s.url+"/player/"+id))
	poll[bool](tb, "the page of "+name, `document.getElementById("profile").dataset.loaded === "1"`)
	if h := eval[string](tb, `document.getElementById("player-name").firstChild.textContent`); h != name {
		t.Errorf("%s's page is headed %q", name, h)
	}
	// Bots are programs, and their pages say so beside the name; a person's says nothing.
	if marked := eval[bool](tb, `!!document.getElementById("program-mark")`); marked != strings.HasPrefix(id, "bot-") {
		t.Errorf("%s's page marks a program: %v", name, marked)
	}
	if about := eval[string](tb, `document.getElementById("about").textContent`); !strings.HasPrefix(about, "Player since ") ||
		strings.Contains(about, "null") || strings.Contains(about, "A bot of the server") != strings.HasPrefix(id, "bot-") {
		t.Errorf("%s's page says %q", name, about)
	}
	formats := eval[[]string](tb, `[...document.querySelectorAll("section.format")].map((s) => s.dataset.format)`)
	var wantFormats []string
	for _, f := range []string{"2p", "3p", "4p", "2v2"} {
		if _, ok := want.Ratings[f]; ok {
			wantFormats = append(wantFormats, f)
		}
	}
	if !slices.Equal(formats, wantFormats) {
		t.Fatalf("%s's page shows formats %v, want %v", name, formats, wantFormats)
	}
	for _, f := range formats {
		r := want.Ratings[f]
		got := eval[profileFigures](tb, fmt.Sprintf(`(() => {
  const s = document.getElementById("format-%[1]s"), dd = (c) => s.querySelector("dd." + c).textContent;
  const svg = s.querySelector("svg.rating-chart");
  const byId = (x) => document.getElementById(x);
  return { rating: dd("rating"), mu: dd("mu"), sigma: dd("sigma"), matches: dd("matches"), wins: dd("wins"),
    established: dd("established"), provisional: s.querySelector("h2 .provisional") !== null,
    points: [...svg.querySelectorAll("circle.point")].map((c) => Number(c.dataset.rating)),
    rows: [...s.querySelectorAll("table.history tbody tr")].map((tr) => tr.dataset.match + " " + tr.querySelector(".after").textContent),
    title: byId(svg.getAttribute("aria-labelledby")).textContent, desc: byId(svg.getAttribute("aria-describedby")).textContent };
})()`, f))
		var history []api.RatingHistoryItem
		for _, h := range want.History {
			if h.Format == f {
				history = append(history, h)
			}
		}
		slices.Reverse(history) // oldest first, as drawn
		if got.Rating != figure(r.Rating) || got.Mu != figure(r.Mu) || got.Sigma != figure(r.Sigma) ||
			got.Matches != fmt.Sprint(r.Matches) || got.Wins != fmt.Sprint(r.Wins) || got.Provisional != r.Provisional ||
			got.Established != fmt.Sprint(r.EstablishedMatches) {
			t.Errorf("%s %s: the page shows %+v, the API %+v", name, f, got, r)
		}
		// Every rated match is drawn, those that did not count (against a provisional
		// opponent, docs/ratings.md "Farming") at the rating they left unchanged.
		counted := 0
		for _, h := range history {
			if h.AgainstEstablished {
				counted++
			}
		}
		if counted != r.Matches || len(got.Points) != len(history) || len(got.Rows) != len(history) {
			t.Fatalf("%s %s: %d points and %d rows for %d rated matches (%d in the history, %d counted)", name, f, len(got.Points), len(got.Rows), r.Matches, len(history), counted)
		}
		for i, h := range history {
			if got.Points[i] != h.After.Rating || got.Rows[i] != h.MatchID+" "+figure(h.After.Rating) {
				t.Errorf("%s %s: match %d drawn at %v (%s), the API says %v", name, f, i+1, got.Points[i], got.Rows[i], h.After.Rating)
			}
		}
		if !strings.Contains(got.Title, fmt.Sprintf("over %d rated match", len(history))) || !strings.Contains(got.Desc, figure(history[len(history)-1].After.Rating)) {
			t.Errorf("%s %s: the chart's title %q and description %q", name, f, got.Title, got.Desc)
		}
	}
}
