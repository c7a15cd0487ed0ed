package web_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// newPuzzleSite is a live server with players, reviews and the puzzles made of them, with one
// reviewed match of bots (greedy against random, to 100) whose review gave puzzles, two
// players, and one puzzle of Ada's own decision: her mistake.
func newPuzzleSite(t *testing.T) (*site, api.CreatePlayerResponse, api.CreatePlayerResponse) {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "allfives.db"), sqlite.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	// The ratings too: the player's page, where "Your mistakes" goes, shows them.
	h := apitest.New(t, apitest.WithStore(store), apitest.Reviews(nil), apitest.Live(nil),
		apitest.ServerConfig(func(c *api.Config) { c.Ratings = ratings.NewService(store) }))
	s := &site{t: t, url: h.Server.URL, srv: h.Server}
	var m api.CreateMatchResponse
	target := 100
	s.call(http.MethodPost, "/api/v1/matches", "", api.CreateMatchRequest{Target: &target, Seed: seed1, Players: []api.PlayerRequest{
		{Kind: "bot", Bot: "greedy"}, {Kind: "bot", Bot: "random"},
	}}, &m)
	s.call(http.MethodPost, "/api/v1/matches/"+m.Match.ID+"/review", "", nil, nil)
	if err := h.Reviews.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	ada, bea := s.newPlayer("Ada"), s.newPlayer("Bea")
	mine := storetest.PuzzleFixture("pzadasown", m.Match.ID, 2, 25, ada.Player.ID, ada.Player.ID)
	if err := store.PutPuzzles(context.Background(), []puzzles.Puzzle{mine}); err != nil {
		t.Fatal(err)
	}
	return s, ada, bea
}

// TestPuzzlesPage: in English and in Dutch, a signed-in player gets a puzzle, answers it with
// the keyboard alone, reads the answer in words with every option's value and its puzzle
// rating, and goes on to the next; the page passes axe-core in each state, fits 390 px, logs
// no console error, and in Dutch shows no English.
func TestPuzzlesPage(t *testing.T) {
	s, _, bea := newPuzzleSite(t)
	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			tb := newBrowser(t).tab(true)
			tb.do("blank", chromedp.Navigate("about:blank"))
			tb.speak(map[string]string{"en": "en-GB,en", "nl": "nl-NL,nl;q=0.9,en;q=0.5"}[lang])
			tb.signInOnPage(s.url, bea)
			tb.do("the puzzles", chromedp.Navigate(s.url+"/puzzles"))
			poll[bool](tb, "a puzzle", fmt.Sprintf(`document.documentElement.lang === %q && document.getElementById("puzzles").dataset.state === "puzzle"`, lang))
			check := func(state string) {
				tb.checkAxe("puzzles, " + state)
				if lang == "nl" {
					left, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]string](untranslated, chromedp.EvalAwaitPromise))
					if err != nil {
						t.Fatal(err)
					}
					if len(left) > 0 {
						t.Errorf("puzzles, %s, in Dutch shows English: %q", state, left)
					}
				}
				tb.fitsWidth("puzzles, "+state, 390)
			}
			check("a puzzle")
			if n := eval[int](tb, `document.querySelectorAll("#move-buttons button").length`); n < 2 {
				t.Fatalf("%d moves to choose from", n)
			}
			tb.do("choose with the keyboard", chromedp.Focus(chromedp.CSS(".puzzle-move")), chromedp.KeyEvent(kb.Enter))
			poll[bool](tb, "the answer", `document.getElementById("puzzles").dataset.state === "answered"`)
			if got := eval[string](tb, `document.activeElement.id`); got != "answer-title" {
				t.Errorf("after an answer the focus is on %q, not the answer", got)
			}
			explain := eval[string](tb, `document.getElementById("explain").textContent`)
			rows := eval[int](tb, `document.querySelectorAll("#option-rows tr").length`)
			best := eval[int](tb, `document.querySelectorAll("#option-rows tr.best").length`)
			solver := eval[string](tb, `document.getElementById("solver").textContent`)
			if len(explain) < 40 || rows < 2 || best != 1 || solver == "" {
				t.Fatalf("the answer: %q, %d options of which %d best, rating %q", explain, rows, best, solver)
			}
			if !eval[bool](tb, `/\d/.test(document.getElementById("solver").textContent)`) {
				t.Errorf("no puzzle rating after a first answer: %q", solver)
			}
			check("answered")
			tb.do("the next puzzle", chromedp.Focus(chromedp.ID("next")), chromedp.KeyEvent(kb.Enter))
			poll[bool](tb, "the next puzzle, or none left", `["puzzle", "none"].includes(document.getElementById("puzzles").dataset.state)`)
		})
	}
}

// TestYourMistakes: the player page lists a signed-in player's own puzzles under "Your
// mistakes" on its own page, and shows nothing on another player's page.
func TestYourMistakes(t *testing.T) {
	s, ada, bea := newPuzzleSite(t)
	b := newBrowser(t)
	tb := b.tab(true)
	tb.signInOnPage(s.url, ada)
	tb.do("Ada's page", chromedp.Navigate(s.url+"/player/"+ada.Player.ID))
	poll[bool](tb, "the page", `!!document.querySelector("main") && document.readyState === "complete"`)
	poll[bool](tb, "Ada's mistakes", `document.getElementById("mistakes").dataset.loaded === "1"`)
	if n := eval[int](tb, `document.querySelectorAll("#mistakes li[data-puzzle]").length`); n != 1 {
		t.Fatalf("Ada's page lists %d mistakes, want her one", n)
	}
	if href := eval[string](tb, `document.querySelector("#mistakes li a").getAttribute("href")`); href == "" {
		t.Fatal("a mistake without a link to its match")
	}
	tb.checkAxe("Ada's mistakes")

	other := b.tab(true)
	other.signInOnPage(s.url, bea)
	other.do("Ada's page, as Bea", chromedp.Navigate(s.url+"/player/"+ada.Player.ID))
	poll[bool](other, "the page", `!!document.querySelector("main") && document.readyState === "complete"`)
	poll[bool](other, "nothing shown", `document.getElementById("mistakes").hidden === true && document.getElementById("profile").dataset.loaded === "1"`)
	if n := eval[int](other, `document.querySelectorAll("#mistakes li").length`); n != 0 {
		t.Fatalf("Bea sees %d of Ada's mistakes", n)
	}
}

// signInOnPage keeps a player in the tab's browser, as the home page's sign-in does, from the
// rules page: a page of the site, whose icon the browser finds where the page says.
func (tb *tab) signInOnPage(url string, p api.CreatePlayerResponse) {
	tb.t.Helper()
	tb.do("sign in "+p.Player.Name, chromedp.Navigate(url+"/rules"))
	eval[bool](tb, fmt.Sprintf(`(localStorage.setItem("allfives:player", JSON.stringify({id: %s, name: %s, key: %s})), true)`,
		jsonString(p.Player.ID), jsonString(p.Player.Name), jsonString(p.Key)))
}
