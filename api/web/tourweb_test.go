package web_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
)

// cutCells lists, at the page's width, every cell of the table's rows that is not wholly
// visible: outside the viewport or the table's box, scrolled, or of no size. A table whose
// rows reflow into cards passes when every figure of every row is on screen.
func cutCells(table string) string {
	return fmt.Sprintf(`(() => {
  const t = document.querySelector(%s);
  const box = t.parentElement, vw = document.documentElement.clientWidth;
  const bad = [];
  if (box.scrollWidth > box.clientWidth + 1) bad.push("the table's box scrolls sideways: " + box.scrollWidth + " > " + box.clientWidth);
  if (document.documentElement.scrollWidth > vw) bad.push("the page scrolls sideways: " + document.documentElement.scrollWidth);
  const rows = [...t.querySelectorAll("tbody tr")];
  if (!rows.length) bad.push("no rows");
  rows.forEach((tr, i) => {
    for (const c of tr.children) {
      const r = c.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.left < -0.5 || r.right > vw + 0.5 || !c.textContent.trim()) bad.push("row " + i + ": " + c.textContent + " at " + Math.round(r.left) + ".." + Math.round(r.right));
    }
  });
  return bad;
})()`, jsonString(table))
}

// TestStandingsWhollyVisibleOnAPhone: the standings of a finished round robin of six bots,
// to 30,
// a duplicate one (its points signed game points), show every figure of every row at 390 px,
// as cards with their columns' names, with no sideways scroll of the page or the table; at
// 1280 px they are a table of columns.
func TestStandingsWhollyVisibleOnAPhone(t *testing.T) {
	t.Parallel()
	s := newMatcherSite(t)
	b := newBrowser(t)
	var org api.CreatePlayerResponse
	s.call("POST", "/api/v1/players", "", api.CreatePlayerRequest{Name: "Olga"}, &org)
	var tv api.TournamentView
	s.call("POST", "/api/v1/tournaments", org.Key, api.CreateTournamentRequest{Name: "Six bots", Format: "2p", System: "round_robin", Duplicate: true, Target: 30, MinEntries: 6, MaxEntries: 6}, &tv)
	for _, bot := range []string{"greedy", "random", "level-1", "level-2", "level-3", "level-4"} { // quick bots
		s.call("POST", "/api/v1/tournaments/"+tv.ID+"/entries", org.Key, api.EnterTournamentRequest{Bot: bot}, nil)
	}
	s.call("POST", "/api/v1/tournaments/"+tv.ID+"/start", org.Key, nil, nil)
	tb := b.tab(false)
	tb.do("the tournament", chromedp.Navigate(s.url+"/tournaments/"+tv.ID))
	pollLong(tb, "the tournament's end", `document.getElementById("tournament").dataset.status === "finished" && document.querySelectorAll("#t-standings-rows tr").length === 6`)
	if got := eval[string](tb, `getComputedStyle(document.querySelector("#t-standings-rows tr")).display`); got != "table-row" {
		t.Errorf("at 1280 px the standings' rows are laid out as %q, not a table's rows", got)
	}
	tb.screenshot("tournament-desktop", 1280, 900)
	tb.screenshot("tournament-phone", 390, 844)
	tb.do("a phone", chromedp.EmulateViewport(390, 844))
	if bad := poll[[]string](tb, "the standings as cards", fmt.Sprintf(`getComputedStyle(document.querySelector("#t-standings-rows tr")).display === "block" && %s`, cutCells("#t-standings"))); len(bad) > 0 {
		t.Errorf("at 390 px the standings cut: %v", bad)
	}
	labels := eval[string](tb, `getComputedStyle(document.querySelector("#t-standings-rows td.points"), "::before").content`)
	if labels != `"Points"` {
		t.Errorf("a card's points are labelled %s", labels)
	}
	tb.checkAxe("tournament, standings as cards")
	tb.fitsWidth("tournament, standings as cards", 390)
}

// TestTournamentFromTheWeb: Ada, signed in, organises a duplicate round robin on the
// tournaments page with a short target and clock, enters three bots from its page, joins,
// withdraws and joins again, starts it, and follows it to its end through the pages: each
// round, her pairing's link opens her table, she plays it by clicking, and the table's badge
// takes her back to the tournament. At the end the standings are final, every table links to
// its replay, and the page says how a duplicate tournament's points are counted.
func TestTournamentFromTheWeb(t *testing.T) {
	t.Parallel()
	s := newMatcherSite(t)
	b := newBrowser(t)
	ada := b.tab(false)
	ada.signUp(s.url, "Ada")
	ada.clickWhen("the tournaments link", "#tournaments-link")
	pollAcross[bool](ada, "the form", `location.pathname === "/tournaments" && !document.getElementById("t-create").hidden`)
	ada.checkAxe("tournaments, the form")
	ada.do("fill the form",
		chromedp.SendKeys(chromedp.ID("t-name-input"), "Quick cup"),
		setSelect("t-format", "2p"), setSelect("t-system", "round_robin"),
		chromedp.Click(chromedp.ID("t-duplicate")),
		chromedp.SendKeys(chromedp.ID("t-target"), "5"),
		chromedp.SendKeys(chromedp.ID("t-clock"), "30"),
		chromedp.Click(chromedp.CSS(`#t-create button[type=submit]`)))
	pollAcross[bool](ada, "the new tournament", `location.pathname.startsWith("/tournaments/") && document.getElementById("tournament").dataset.status === "upcoming" && !document.getElementById("t-bots").hidden && document.getElementById("t-bot").options.length > 0`)
	id := eval[string](ada, `location.pathname.split("/")[2]`)
	var tv api.TournamentView
	s.call("GET", "/api/v1/tournaments/"+id, "", nil, &tv)
	if tv.Spec.Name != "Quick cup" || !tv.Spec.Duplicate || tv.Spec.Target != 5 || tv.Spec.TurnSeconds != 30 || tv.Spec.System != "round_robin" {
		t.Fatalf("the form made %+v", tv.Spec)
	}
	for i, bot := range []string{"greedy", "random", "level-1"} { // quick bots: the test waits on their tables
		ada.do("choose "+bot, setSelect("t-bot", bot))
		ada.clickWhen("enter "+bot, "#t-add-bot")
		poll[bool](ada, bot+" entered", fmt.Sprintf(`document.querySelectorAll("#t-entries li[data-player]").length === %d`, i+1))
	}
	ada.clickWhen("join", "#t-join")
	poll[bool](ada, "Ada entered", `document.querySelectorAll("#t-entries li[data-player]").length === 4 && !document.getElementById("t-withdraw").hidden`)
	ada.clickWhen("withdraw", "#t-withdraw")
	poll[bool](ada, "Ada withdrawn", `document.querySelectorAll("#t-entries li[data-player]").length === 3 && !document.getElementById("t-join").hidden`)
	ada.clickWhen("join again", "#t-join")
	poll[bool](ada, "Ada entered again", `document.querySelectorAll("#t-entries li[data-player]").length === 4`)
	ada.checkAxe("tournament, organised")
	ada.clickWhen("start", "#t-start")
	pollLong(ada, "the start", `document.getElementById("tournament").dataset.status === "running" || !document.getElementById("error").hidden`)
	if msg := eval[string](ada, `document.getElementById("error").hidden ? "" : document.getElementById("error").textContent`); msg != "" {
		t.Fatalf("the start was refused: %s", msg)
	}

	rng := rand.New(rand.NewPCG(58, 29))
	clicked := 0
	for round := 1; round <= 3; round++ {
		mine := fmt.Sprintf(`#t-rounds section[data-round="%d"] li.you a.pairing`, round)
		// The round begins when the bots' table of the last one has ended too: on a busy
		// machine that may take longer than a poll's minute. Her table may also have ended on
		// its clock (autoplay) before a machine that busy let the test reach it: then it links
		// to its replay, and the test goes on to the next round.
		pollLong(ada, fmt.Sprintf("round %d", round), fmt.Sprintf(`!!document.querySelector(%s)`, jsonString(mine)))
		if href := eval[string](ada, fmt.Sprintf(`document.querySelector(%s).getAttribute("href")`, jsonString(mine))); strings.HasPrefix(href, "/replay/") {
			t.Logf("round %d: Ada's table ended on its clock before the test reached it", round)
			continue
		}
		clicked++
		ada.clickWhen(fmt.Sprintf("Ada's table of round %d", round), mine)
		pollAcross[bool](ada, "Ada's table", `location.pathname.startsWith("/play/") && !document.getElementById("seat-box").hidden`)
		moves := 0
		for ada.playOne(rng) {
			if moves++; moves > 300 {
				t.Fatalf("round %d: the match did not end in 300 moves", round)
			}
		}
		ada.clickWhen("the badge, back to the tournament", "#tour-deal")
		pollAcross[bool](ada, "the tournament", `location.pathname.startsWith("/tournaments/") && document.getElementById("tournament").dataset.loaded === "1"`)
		t.Logf("round %d: %d moves", round, moves)
	}
	if clicked == 0 {
		t.Fatal("Ada played none of her tables: each ended on its clock first")
	}
	pollLong(ada, "the end", `document.getElementById("tournament").dataset.status === "finished"`)
	s.call("GET", "/api/v1/tournaments/"+id, "", nil, &tv)
	shown := eval[[]string](ada, `[...document.querySelectorAll("#t-standings-rows tr")].map((r) => r.querySelector("th").textContent.split(" ")[0] + " " + r.querySelector("td.points").textContent)`)
	if len(shown) != len(tv.Standings) {
		t.Fatalf("the page shows %d standings, the API %d", len(shown), len(tv.Standings))
	}
	for i, st := range tv.Standings {
		if !strings.HasPrefix(shown[i], st.Name+" ") {
			t.Errorf("standing %d reads %q, the API's %s with %v", i+1, shown[i], st.Name, st.Points)
		}
	}
	if n := eval[int](ada, `[...document.querySelectorAll("#t-rounds a.pairing")].filter((a) => !a.getAttribute("href").startsWith("/replay/")).length`); n != 0 {
		t.Errorf("%d tables of the finished tournament do not link to their replay", n)
	}
	if text := eval[string](ada, `document.getElementById("t-scoring").hidden ? "" : document.getElementById("t-scoring-text").textContent`); !strings.Contains(text, "game points, not wins") || !strings.Contains(text, "negative Buchholz") {
		t.Errorf("the duplicate tournament's page says of its points: %q", text)
	}
	ada.checkAxe("tournament, finished")
	ada.do("a phone", chromedp.EmulateViewport(390, 844))
	if bad := poll[[]string](ada, "the standings at 390 px", cutCells("#t-standings")); len(bad) > 0 {
		t.Errorf("at 390 px the standings cut: %v", bad)
	}
	ada.fitsWidth("tournament, finished", 390)
}

// pollLong waits up to three minutes for the expression to be truthy: for the bots' tables of
// a tournament, which a machine busy with other work may play slowly.
// The tab is brought to the front first: a page in the background has its timers, and so
// its reading again every 2 s, throttled.
func pollLong(tb *tab, what, expr string) {
	tb.t.Helper()
	if _, err := chromedp.Call(tb.ctx, page.BringToFront, cdp.Empty{}); err != nil {
		tb.t.Fatal(err)
	}
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(3*time.Minute), chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		shown := eval[string](tb, `location.pathname + ": " + ((document.getElementById("error") || {}).textContent || "no error") + " | " + ((document.querySelector("main") || {}).dataset || {}).status + " | " + ((document.getElementById("t-rounds") || {}).textContent || "")`)
		tb.t.Fatalf("waiting for %s: %v; the page shows %s", what, err, shown)
	}
}
