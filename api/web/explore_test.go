package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/allfives/allfives/api"
)

// firstDecision is the analysis of the first decision of finished match id, found by asking
// the API step by step.
func (s *site) firstDecision(id string, version int) api.Analysis {
	s.t.Helper()
	for step := 3; step <= version; step++ {
		res, err := http.Get(s.url + fmt.Sprintf("/api/v1/matches/%s/analysis?step=%d", id, step))
		if err != nil {
			s.t.Fatal(err)
		}
		var x api.Analysis
		err = json.NewDecoder(res.Body).Decode(&x)
		res.Body.Close()
		if res.StatusCode == http.StatusOK && err == nil {
			return x
		}
	}
	s.t.Fatal("the match has no decision")
	return api.Analysis{}
}

// reviewDone waits until match id's review is done: Explore lists the review's decisions.
func (s *site) reviewDone(id string) {
	s.t.Helper()
	for range 3000 {
		if v := s.view(id, ""); v.Review == "done" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.t.Fatal("the review was never done")
}

// TestExploreAndPlayOn opens the replay of a finished, reviewed match on the step before a
// decision:
// Explore lists the options the API's analysis gives, with their values and the played and
// best moves marked, in English and in Dutch, with axe-core finding nothing and the page
// fitting a phone; "Play on from here", pressed from the keyboard, creates a branch and opens
// it at /play/{id} with its seat token kept.
func TestExploreAndPlayOn(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	m := s.create(100, seed1, "bot:greedy", "bot:random").Match
	s.call("POST", "/api/v1/matches/"+m.ID+"/review", "", nil, nil)
	s.reviewDone(m.ID)
	x := s.firstDecision(m.ID, m.Version)
	tb := b.tab(false)
	tb.do("open the replay before a decision", chromedp.Navigate(fmt.Sprintf("%s/replay/%s?step=%d", s.url, m.ID, x.Step-1)))
	shown := poll[[]string](tb, "the options", fmt.Sprintf(`document.getElementById("explore").dataset.step === "%d" && [...document.querySelectorAll("#explore-options li")].map((e) => e.textContent)`, x.Step))
	if len(shown) != len(x.Options) {
		t.Fatalf("the page lists %d options, the API %d: %v", len(shown), len(x.Options), shown)
	}
	for i, o := range x.Options {
		value := fmt.Sprintf("%.1f points", o.Value)
		if o.Value < 0 {
			value = fmt.Sprintf("−%.1f points", -o.Value)
		} else if o.Value > 0 {
			value = "+" + value
		}
		if !strings.Contains(shown[i], value) || strings.Contains(shown[i], "played") != o.Played || strings.Contains(shown[i], "best") != o.Best {
			t.Errorf("option %d reads %q; the API's is %+v", i, shown[i], o)
		}
	}
	tb.checkAxe("the replay with Explore")
	tb.checkAccessible("the replay with Explore")
	tb.fitsWidth("the replay with Explore", 390)

	tb.do("play on from the keyboard", chromedp.Focus(chromedp.ID("play-on")), chromedp.KeyEvent(kb.Enter))
	id := tb.afterNavigation("the branch's table", `location.pathname.startsWith("/play/") && document.readyState === "complete" && location.pathname.slice(6)`)
	if !eval[bool](tb, fmt.Sprintf(`localStorage.getItem("allfives:seat:%s") !== null`, id)) {
		t.Error("the branch's seat token was not kept")
	}
	v := s.view(id, "")
	if v.BranchOf == nil || v.BranchOf.Match != m.ID || v.BranchOf.Step != x.Step || v.Turn == nil || *v.Turn != x.Seat {
		t.Fatalf("the branch opened: branch_of %+v, turn %v, want seat %d to move", v.BranchOf, v.Turn, x.Seat)
	}

	nl := b.tab(true)
	nl.speak("nl")
	nl.do("open the replay in Dutch", chromedp.Navigate(fmt.Sprintf("%s/replay/%s?step=%d", s.url, m.ID, x.Step-1)))
	title := poll[string](nl, "the Dutch options", `document.querySelectorAll("#explore-options li").length > 0 && document.getElementById("explore-title").textContent + " " + document.getElementById("play-on").textContent`)
	if title != "Verkennen Speel verder vanaf hier" {
		t.Errorf("the Dutch page reads %q", title)
	}
	nl.checkAxe("the replay with Explore, in Dutch")
}

// afterNavigation polls expr, a string or false, as poll does, through the navigation a click
// starts: a poll the navigation cuts off is asked again on the new page.
func (tb *tab) afterNavigation(what, expr string) string {
	tb.t.Helper()
	var last error
	for range 50 {
		v, err := chromedp.Run(tb.ctx, chromedp.Poll[string](expr, chromedp.WithPollingTimeout(10*time.Second), chromedp.WithPollingInterval(20*time.Millisecond)))
		if err == nil {
			return v
		}
		last = err
	}
	tb.t.Fatalf("waiting for %s: %v", what, last)
	return ""
}
