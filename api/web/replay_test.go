package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/allfives/allfives/api"
)

// replayAnswer is the API's replay of one step.
func (s *site) replayAt(id string, step int) api.ReplayResponse {
	s.t.Helper()
	var r api.ReplayResponse
	s.call("GET", fmt.Sprintf("/api/v1/matches/%s/replay?step=%d", id, step), "", nil, &r)
	return r
}

// replayShown is what the replay viewer draws: the step, the line, the scores, each seat's
// tiles and the event in words.
type replayShown struct {
	Step   string     `json:"step"`
	Line   []string   `json:"line"`
	Scores []int      `json:"scores"`
	Hands  [][]string `json:"hands"`
	Event  string     `json:"event"`
	URL    string     `json:"url"`
}

const readReplay = `(() => ({
  step: document.getElementById("replay").dataset.step,
  line: [...document.querySelectorAll("#line [data-tile]")].map((e) => e.dataset.tile),
  scores: [...document.querySelectorAll("#scores .points")].map((e) => Number(e.textContent)),
  hands: [...document.querySelectorAll("#hands .seat")].map((s) => [...s.querySelectorAll("[data-tile]")].map((e) => e.dataset.tile)),
  event: document.getElementById("event").textContent,
  url: location.href,
}))()`

// TestReplayViewer opens the replay of a finished seeded match at a deep link, steps through it
// with the arrow keys, Home, End and the buttons, and checks at each step that the line, the
// scores, every hand and the event in words are the API's replay answer for that step.
func TestReplayViewer(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	m := s.create(100, seed1, "bot:greedy", "bot:random").Match
	if m.Status != "finished" {
		t.Fatalf("a match of bots is %s after its creation", m.Status)
	}
	last := m.Version
	tb := b.tab(false)
	tb.do("open the replay", chromedp.Navigate(s.url+"/replay/"+m.ID+"?step=5"))

	check := func(step int) {
		t.Helper()
		got := poll[replayShown](tb, fmt.Sprintf("step %d", step),
			fmt.Sprintf(`document.getElementById("replay").dataset.step === "%d" && %s`, step, readReplay))
		want := s.replayAt(m.ID, step)
		var line []string
		var hands [][]string
		if h := want.Match.Hand; h != nil {
			line, hands = h.Line, h.Hands
		}
		if !slices.Equal(got.Line, line) && !(len(got.Line) == 0 && len(line) == 0) {
			t.Errorf("step %d: the line drawn is %v, the API's %v", step, got.Line, line)
		}
		if !slices.Equal(got.Scores, want.Match.Scores) {
			t.Errorf("step %d: the scores shown are %v, the API's %v", step, got.Scores, want.Match.Scores)
		}
		for seat, tiles := range hands {
			if seat >= len(got.Hands) || !slices.Equal(got.Hands[seat], tiles) {
				t.Errorf("step %d: seat %d's hand shown is %v, the API's %v", step, seat, got.Hands, hands)
			}
		}
		if !strings.HasSuffix(got.URL, "step="+strconv.Itoa(step)) {
			t.Errorf("step %d: the address is %s, not a deep link to the step", step, got.URL)
		}
		e := want.Event
		name := want.Match.Seats[0].Name
		if e.Data.Seat != nil {
			name = want.Match.Seats[*e.Data.Seat].Name
		}
		var words string
		switch e.Type {
		case "tile.played": // the tile as it lies: the line's end it was played on
			laid := line[0]
			if e.Data.End == "right" {
				laid = line[len(line)-1]
			}
			words = fmt.Sprintf("%s plays %s on the %s: ends count %d", name, laid, e.Data.End, *e.Data.Total)
			if len(line) == 1 {
				words = fmt.Sprintf("%s leads %s: ends count %d", name, laid, *e.Data.Total)
			}
		case "tile.drawn":
			words = fmt.Sprintf("%s draws %s", name, e.Data.Tile)
		case "turn.passed":
			words = name + " passes"
		case "hand.started":
			words = fmt.Sprintf("Hand %d dealt", *e.Data.Hand)
		case "hand.ended":
			words = fmt.Sprintf("Hand %d ends", *e.Data.Hand)
		case "match.ended":
			words = "Match over"
		case "match.created":
			words = "Match created"
		}
		if !strings.Contains(got.Event, words) {
			t.Errorf("step %d (%s): the event reads %q, want it to say %q", step, e.Type, got.Event, words)
		}
	}

	check(5)
	for step := 6; step <= 8; step++ {
		tb.do("arrow right", chromedp.KeyEvent(kb.ArrowRight))
		check(step)
	}
	tb.do("arrow left", chromedp.KeyEvent(kb.ArrowLeft))
	check(7)
	tb.do("end", chromedp.KeyEvent(kb.End))
	check(last)
	tb.do("arrow left from the end", chromedp.KeyEvent(kb.ArrowLeft))
	check(last - 1)
	tb.do("home", chromedp.KeyEvent(kb.Home))
	check(1)
	tb.do("the next button", chromedp.Click(chromedp.ID("next")))
	check(2) // the deal: every hand open
	tb.do("the slider", setInput("slider", strconv.Itoa(last/2)))
	check(last / 2)

	verdict := poll[string](tb, "the audit", `document.getElementById("seed-check").textContent.includes("Seed") && document.getElementById("audit-verdict").textContent`)
	var audit api.AuditReport
	s.call("GET", "/api/v1/matches/"+m.ID+"/audit", "", nil, &audit)
	if want := fmt.Sprintf("Verified: all %d checks pass over %d events.", len(audit.Checks), audit.Events); !audit.OK || verdict != want {
		t.Errorf("the audit verdict reads %q, want %q", verdict, want)
	}
	if n := eval[int](tb, `document.querySelectorAll("#audit-checks li").length`); n != len(audit.Checks) {
		t.Errorf("the page lists %d audit checks, the API %d", n, len(audit.Checks))
	}
	if seed := eval[string](tb, `document.getElementById("seed-check").textContent`); !strings.Contains(seed, "✓ Seed matches") || !strings.Contains(seed, seed1) {
		t.Errorf("the seed check reads %q", seed)
	}
	links := eval[[]string](tb, `[...document.querySelectorAll("#export-json, #export-text")].map((a) => a.getAttribute("href"))`)
	wantLinks := []string{"/api/v1/matches/" + m.ID + "/export?format=json", "/api/v1/matches/" + m.ID + "/export?format=text"}
	if !slices.Equal(links, wantLinks) {
		t.Errorf("the export links are %v, want %v", links, wantLinks)
	}
	if n := eval[int](tb, `document.querySelectorAll("#log li").length`); n != last {
		t.Errorf("the list of events has %d entries, the match %d events", n, last)
	}
	tb.checkAccessible("replay")
	tb.fitsWidth("the replay", 360)
	tb.do("deep link to step 3", chromedp.Navigate(s.url+"/replay/"+m.ID+"?step=3"))
	check(3)
	tb.screenshot("replay-desktop", 1280, 900)
	tb.screenshot("replay-phone", 390, 844)

	// The table of the finished match, as a spectator: the end screen and the last events.
	tb.do("the finished table", chromedp.Navigate(s.url+"/play/"+m.ID), chromedp.WaitVisible(chromedp.ID("result")))
	log := poll[string](tb, "the last events", `document.querySelectorAll("#log li").length > 0 && document.getElementById("log").textContent`)
	if !strings.Contains(log, "Match over: Ada wins") && !strings.Contains(log, "Match over: Bo wins") {
		t.Errorf("the finished table's log reads %q", log)
	}
	if !eval[bool](tb, `document.getElementById("seat-box").hidden && document.getElementById("seat-form-box").hidden`) {
		t.Error("a spectator of the finished table is offered a seat")
	}

	// A match that does not exist: the page says what the API said.
	tb.expectConsole("status of 404")
	tb.do("an unknown match", chromedp.Navigate(s.url+"/replay/0123456789abcdef0123456789abcdef"))
	shown := poll[string](tb, "the problem", `!document.getElementById("error").hidden && document.getElementById("error").textContent`)
	res, err := http.Get(s.url + "/api/v1/matches/0123456789abcdef0123456789abcdef/export")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var p struct {
		Detail string `json:"detail"`
	}
	if err := json.NewDecoder(res.Body).Decode(&p); err != nil || p.Detail == "" || shown != p.Detail {
		t.Errorf("the page shows %q for an unknown match, the API's detail is %q", shown, p.Detail)
	}
}
