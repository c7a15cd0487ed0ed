package web_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
)

// reviewShown is what the replay viewer draws of a review.
type reviewShown struct {
	Seats  int      `json:"seats"`
	Dots   int      `json:"dots"`
	Lines  int      `json:"lines"`
	Worst  []string `json:"worst"`
	Status string   `json:"status"`
}

const readReview = `(() => ({
  seats: document.querySelectorAll("#review-seats tbody tr").length,
  dots: document.querySelectorAll("#review-graph circle").length,
  lines: document.querySelectorAll("#review-graph polyline").length,
  worst: [...document.querySelectorAll("#review-worst a")].map((a) => a.dataset.step),
  status: document.getElementById("review-status").textContent,
}))()`

// TestReviewFromTheReplayViewer: a finished match never reviewed offers "Review this match";
// asked from the viewer, the review arrives and shows each seat's row, a graph with a point
// per judged decision, and the worst moves, each linked to its step; following one moves the
// viewer to that step, where the judgement of that decision is said in words. On a phone the
// seats are cards, every figure on screen, and the chart's labels stay readable.
func TestReviewFromTheReplayViewer(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	m := s.create(100, seed1, "bot:greedy", "bot:random").Match
	tb := b.tab(false)
	tb.do("open the replay", chromedp.Navigate(s.url+"/replay/"+m.ID),
		chromedp.WaitVisible(chromedp.ID("review-request")))
	// The step's line and hands are drawn from an answer that may come after the review's
	// button, and push the button down: a click aimed before they land can miss it, and the
	// review then never starts. Click once the step is drawn.
	poll[bool](tb, "the replay drawn", `document.getElementById("replay").dataset.step !== "0"`)
	tb.do("ask for a review", chromedp.Click(chromedp.ID("review-request")))
	poll[bool](tb, "the review asked for", `!document.getElementById("review-request")`)
	shown := poll[reviewShown](tb, "the review", `document.querySelector("#review-seats") && document.querySelector("#review-worst") && `+readReview)

	var rv api.Review
	s.call("GET", "/api/v1/matches/"+m.ID+"/review", "", nil, &rv)
	if rv.Status != "done" || len(rv.Decisions) == 0 {
		t.Fatalf("the API's review: %+v", rv)
	}
	if shown.Seats != len(rv.Seats) || shown.Dots != len(rv.Decisions) || shown.Lines != len(m.Seats) {
		t.Fatalf("the viewer shows %d seats, %d points and %d lines; the review has %d seats and %d decisions, the match %d seats",
			shown.Seats, shown.Dots, shown.Lines, len(rv.Seats), len(rv.Decisions), len(m.Seats))
	}
	// The chart names its axes, and its legend names each player's line; the method is one
	// click away, folded under "How this was judged".
	legend := eval[[]string](tb, `[...document.querySelectorAll("#review-legend li")].map((li) => li.textContent)`)
	if len(legend) != len(m.Seats) || legend[0] != m.Seats[0].Name || legend[1] != m.Seats[1].Name {
		t.Errorf("the chart's legend reads %v", legend)
	}
	if n := eval[int](tb, `document.querySelectorAll("#review-graph .axis-name").length`); n != 2 {
		t.Errorf("the chart names %d axes", n)
	}
	if method := eval[string](tb, `(() => { const d = document.getElementById("review-method"); return d && !d.open ? d.querySelector("code").textContent : ""; })()`); method != rv.Method {
		t.Errorf("the method, folded, reads %q; the review's is %q", method, rv.Method)
	}
	if strings.Contains(eval[string](tb, `document.getElementById("review-status").textContent`), "allfives-review") {
		t.Error("the review's status shows the raw method")
	}
	if len(shown.Worst) == 0 {
		t.Fatalf("no worst move listed: %+v", shown)
	}
	bySeq := map[int]api.ReviewDecision{}
	worst := 0.0
	for _, d := range rv.Decisions {
		bySeq[d.Seq] = d
		worst = max(worst, d.Loss)
	}
	step, err := strconv.Atoi(shown.Worst[0])
	if err != nil || bySeq[step].Loss != worst {
		t.Fatalf("the first worst move is step %q; the review's worst loss is %v, that step's %v", shown.Worst[0], worst, bySeq[step].Loss)
	}
	tb.do("follow the worst move", chromedp.Click(chromedp.CSS(fmt.Sprintf(`#review-worst a[data-step="%d"]`, step))))
	said := poll[string](tb, "the judgement at the step",
		fmt.Sprintf(`document.getElementById("replay").dataset.step === "%d" && document.getElementById("review-step").textContent`, step))
	d := bySeq[step]
	name := m.Seats[d.Seat].Name
	// The class in plain words (the catalogue's), and the class itself on the line.
	plain := map[string]string{"best": "the best move", "good": "a good move", "inaccuracy": "a small slip", "mistake": "a mistake", "blunder": "a big mistake"}[d.Class]
	if cls := eval[string](tb, `document.getElementById("review-step").dataset.class`); cls != d.Class {
		t.Errorf("the step's class is %q, the review's %q", cls, d.Class)
	}
	if !strings.HasPrefix(said, name+" played ") || !strings.Contains(said, plain) || !strings.Contains(said, fmt.Sprintf("−%.1f", d.Loss)) {
		t.Fatalf("at step %d the viewer says %q; the review has %s's %s losing %.1f", step, said, name, d.Class, d.Loss)
	}
	if url := eval[string](tb, "location.href"); !strings.Contains(url, "step="+strconv.Itoa(step)) {
		t.Fatalf("the address does not name step %d: %s", step, url)
	}
	// On a phone the seats' table is cards: every figure of every seat on screen, nothing
	// scrolled sideways.
	tb.do("a phone", chromedp.EmulateViewport(390, 844))
	if bad := poll[[]string](tb, "the review's seats as cards", fmt.Sprintf(`getComputedStyle(document.querySelector("#review-seats tbody tr")).display === "block" && %s`, cutCells("#review-seats"))); len(bad) > 0 {
		t.Errorf("at 390 px the review's seats cut: %v", bad)
	}
	// The chart's labels stay readable there: drawn at least 9 px high on the screen.
	if h := eval[float64](tb, `Math.min(...[...document.querySelectorAll("#review-graph text.tick")].map((e) => e.getBoundingClientRect().height))`); h < 9 {
		t.Errorf("at 390 px the chart's labels are %.1f px high", h)
	}
}
