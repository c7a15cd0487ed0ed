package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
)

// openStreams counts the live streams a server is serving at the moment.
type openStreams struct{ n atomic.Int64 }

// wrap counts each request for a stream while its handler runs, which is while it is open.
func (o *openStreams) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/stream") {
			o.n.Add(1)
			defer o.n.Add(-1)
		}
		next.ServeHTTP(w, r)
	})
}

// await waits until the server serves want streams, and fails the test if it never does.
func (o *openStreams) await(t *testing.T, what string, want int64) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for o.n.Load() != want {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the server serves %d streams, want %d", what, o.n.Load(), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestStreamsEndWhenThePageIsLeft: a table left for another page closes its stream, though
// Chromium keeps the page in its back-forward cache (a stream held there would take one of
// the six connections a browser allows a host, and a few pages later every request waits);
// back on the table, the page is the one from the cache, its stream opens again from the last
// event it had, and a move made meanwhile shows without a reload.
func TestStreamsEndWhenThePageIsLeft(t *testing.T) {
	t.Parallel()
	var open openStreams
	srv := httptest.NewServer(open.wrap(playersHandler(t)))
	t.Cleanup(srv.Close)
	s := &site{t: t, url: srv.URL, srv: srv}
	created := s.create(250, seed1, "Ann", "Ben")
	id := created.Match.ID
	ann, ben := created.Tokens[0].Token, created.Tokens[1].Token
	tb := newBrowser(t).tab(false)
	tb.takeSeat(s.url+"/play/"+id, ann)
	open.await(t, "the table follows the match", 1)

	tb.do("mark the page, and leave it for the rules",
		chromedp.Evaluate[chromedp.Void](`window.sameTable = true`),
		chromedp.Navigate(s.url+"/rules"),
		chromedp.WaitVisible(chromedp.CSS("main")))
	open.await(t, "the table left", 0)

	// Ann plays while she reads the rules (seed1 gives her the lead), and Ben replies.
	v := s.view(id, ann)
	if len(v.LegalMoves) == 0 {
		t.Fatalf("Ann has no move to make: %+v", v.Hand)
	}
	s.move(id, ann, v.LegalMoves[0])
	if w := s.view(id, ben); len(w.LegalMoves) > 0 {
		s.move(id, ben, w.LegalMoves[0])
	}
	after := s.view(id, "")

	// chromedp waits for a load after NavigateBack, and its Poll for a frame it tracks: a page
	// shown from the cache gives neither, so this waits by evaluating in a loop.
	tb.do("back to the table", chromedp.Evaluate[chromedp.Void](`history.back()`))
	open.await(t, "the table back", 1)
	evalUntil(tb, "the table shown again", `location.pathname.startsWith("/play/")`)
	if !eval[bool](tb, `window.sameTable === true`) {
		t.Fatal("the table was loaded anew, not shown from the back-forward cache: this test checks nothing")
	}
	evalUntil(tb, "the moves made while away", fmt.Sprintf(
		`document.getElementById("table").dataset.version === "%d"`, after.Version))
}

// evalUntil evaluates the expression until it is true, and fails the test if it never is.
func evalUntil(tb *tab, what, expr string) {
	tb.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !eval[bool](tb, expr) {
		if time.Now().After(deadline) {
			tb.t.Fatalf("waiting for %s: %s is still false", what, expr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// move makes one of the legal moves a view offers, as the token's seat.
func (s *site) move(id, token string, m api.LegalMove) {
	s.t.Helper()
	req := api.MoveRequest{Action: m.Action}
	if m.Action == "play" {
		req.Tile, req.End = &m.Tile, &m.End
	}
	s.call(http.MethodPost, "/api/v1/matches/"+id+"/moves", token, req, nil)
}
