package web_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/reviews"
)

// requests records the method and address of every request a tab sends.
type requests struct {
	mu   sync.Mutex
	seen []string // "GET http://..."
}

func (r *requests) record(tb *tab) {
	tb.t.Helper()
	if err := chromedp.Listen(tb.ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			r.mu.Lock()
			r.seen = append(r.seen, e.Request.Method+" "+e.Request.URL)
			r.mu.Unlock()
		}
	}); err != nil {
		tb.t.Fatal(err)
	}
}

// to lists the requests sent to the address ending in suffix (its query left out).
func (r *requests) to(suffix string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, s := range r.seen {
		if addr, _, _ := strings.Cut(s, "?"); strings.HasSuffix(addr, suffix) {
			out = append(out, s)
		}
	}
	return out
}

// consoleErrors is every console error the tab got so far.
func (tb *tab) consoleErrors() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.errs...)
}

// replayed opens the replay of match id and waits until the page has drawn its step, its
// review panel and its audit: every request the page makes by itself has been made.
func (tb *tab) replayed(url, id string) {
	tb.t.Helper()
	tb.do("open the replay", chromedp.Navigate(url+"/replay/"+id))
	poll[bool](tb, "the replay drawn", `document.getElementById("replay").dataset.step !== "0" &&
  document.getElementById("review-status").textContent !== "" &&
  document.getElementById("seed-check").textContent.includes("Seed") && !!document.getElementById("audit-verdict").textContent`)
}

// TestReplayOfAMatchWithoutReview: the replay of a finished match that was never reviewed
// offers "Review this match" and sends no request to its review, so the browser logs no
// error; once the review is done, another browser's replay shows it at once, with no button
// and no POST, from the one GET the match's view said would answer.
func TestReplayOfAMatchWithoutReview(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	m := s.create(100, seed1, "bot:greedy", "bot:random").Match
	review := "/api/v1/matches/" + m.ID + "/review"
	if v := s.view(m.ID, ""); v.Review != "none" {
		t.Fatalf("a finished match never reviewed says review %q", v.Review)
	}
	tb := b.tab(false)
	var sent requests
	sent.record(tb)
	tb.replayed(s.url, m.ID)
	poll[bool](tb, "the review's button", `!!document.getElementById("review-request")`)
	if got := sent.to(review); len(got) != 0 {
		t.Fatalf("the replay of a match without a review asked for it: %v", got)
	}
	if len(sent.to("/export")) == 0 {
		t.Fatal("the page's requests were not recorded") // the check above would prove nothing
	}
	if errs := tb.consoleErrors(); len(errs) != 0 {
		t.Fatalf("the replay logged console errors: %v", errs)
	}

	s.call(http.MethodPost, review, "", nil, nil)
	var rv api.Review
	for rv.Status != "done" {
		time.Sleep(50 * time.Millisecond)
		s.call(http.MethodGet, review, "", nil, &rv)
	}
	if v := s.view(m.ID, ""); v.Review != "done" {
		t.Fatalf("a reviewed match says review %q", v.Review)
	}
	other := b.tab(true)
	var again requests
	again.record(other)
	other.replayed(s.url, m.ID)
	rows := poll[int](other, "the review shown", `!document.getElementById("review-request") && document.querySelectorAll("#review-seats tbody tr").length`)
	if rows != len(rv.Seats) {
		t.Fatalf("the review shows %d seats, the API's %d", rows, len(rv.Seats))
	}
	if got := again.to(review); len(got) != 1 || !strings.HasPrefix(got[0], "GET ") {
		t.Fatalf("to show a done review the page sent %v, not one GET", got)
	}
	if errs := other.consoleErrors(); len(errs) != 0 {
		t.Fatalf("the replay logged console errors: %v", errs)
	}
}

// TestReplayOfAReviewRunning: a review being computed when the replay opens is said to be
// running, with no button, and the page asks again until it is done, then shows it.
func TestReplayOfAReviewRunning(t *testing.T) {
	t.Parallel()
	started, open := make(chan struct{}, 1), make(chan struct{})
	held := func(ctx context.Context, events []domain.Event, opts analysis.Options) (*analysis.Result, error) {
		started <- struct{}{}
		select {
		case <-open:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return analysis.Review(ctx, events, opts)
	}
	srv := apitest.New(t, apitest.Bots(7), apitest.Reviews(func(c *reviews.Config) { c.Engine = held }), apitest.Live(nil)).Server
	s := &site{t: t, url: srv.URL, srv: srv}
	b := newBrowser(t)
	m := s.create(100, seed1, "bot:greedy", "bot:random").Match
	review := "/api/v1/matches/" + m.ID + "/review"
	s.call(http.MethodPost, review, "", nil, nil)
	<-started
	if v := s.view(m.ID, ""); v.Review != "running" {
		t.Fatalf("a match being reviewed says review %q", v.Review)
	}
	tb := b.tab(false)
	var sent requests
	sent.record(tb)
	tb.replayed(s.url, m.ID)
	status := poll[string](tb, "the review running", `document.getElementById("review-status").textContent`)
	if status != "The review is running…" || eval[bool](tb, `!!document.getElementById("review-request")`) {
		t.Fatalf("a review running reads %q, or offers its button", status)
	}
	// The page asks again while the review runs (every 1.5 s).
	poll[bool](tb, "a second ask", `performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/review")).length >= 2`)
	close(open)
	poll[bool](tb, "the review shown", `document.querySelectorAll("#review-seats tbody tr").length === 2`)
	for _, r := range sent.to(review) {
		if !strings.HasPrefix(r, "GET ") {
			t.Fatalf("the page sent %s for a review already asked for", r)
		}
	}
}
