package web_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
)

// lateRead holds back, once armed, the answer to the next read of one address: the server
// answers at once, and the answer reaches the browser only when the test releases it, as a
// slow network would deliver it.
type lateRead struct {
	mu       sync.Mutex
	path     string
	armed    bool
	held     chan struct{} // closed once the answer is made and held
	release  chan struct{} // closed by the test to deliver it
	released chan struct{} // closed once it is delivered
	once     sync.Once
}

// deliver lets the held answer go, once; a test that fails before it does not leave the
// handler waiting (srv.Close would wait for it).
func (l *lateRead) deliver() { l.once.Do(func() { close(l.release) }) }

func newLateRead() *lateRead {
	return &lateRead{held: make(chan struct{}), release: make(chan struct{}), released: make(chan struct{})}
}

// arm holds the answer to the next GET of path.
func (l *lateRead) arm(path string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.path, l.armed = path, true
}

// take answers whether this request is the one to hold, disarming.
func (l *lateRead) take(r *http.Request) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.armed || r.Method != http.MethodGet || r.URL.Path != l.path {
		return false
	}
	l.armed = false
	return true
}

// wrap serves next, holding back the answer to the armed read.
func (l *lateRead) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !l.take(r) {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		close(l.held)
		<-l.release
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
		close(l.released)
	})
}

// TestRematchOfferOutlivesALateRead: a rematch is linked to a finished match without changing
// its version, so a read of the match made before the offer and answered after it looks as
// new as the read the offer caused. Bob's end screen must keep showing Ada's offer when such
// a late read arrives. (Chromium holds a second read of the same address until the first is
// answered, or for 20 seconds, after which it sends it anyway: so the test takes that long,
// and a slow network makes the same order.)
func TestRematchOfferOutlivesALateRead(t *testing.T) {
	t.Parallel()
	var open openStreams
	late := newLateRead()
	srv := httptest.NewServer(late.wrap(open.wrap(playersHandler(t))))
	t.Cleanup(srv.Close)
	t.Cleanup(late.deliver)
	s := &site{t: t, url: srv.URL, srv: srv}
	b := newBrowser(t)
	bobTab, bob := s.signedIn(b, "Bob", false)
	ada := s.newPlayer("Ada")

	// Ada challenges Bob, Bob takes his seat, and they play to the end through the API.
	target := 5
	var created api.CreateMatchResponse
	s.call(http.MethodPost, "/api/v1/matches", ada.Key, api.CreateMatchRequest{Target: &target, Players: []api.PlayerRequest{
		{Kind: "human", Player: "me"}, {Kind: "human", Player: bob.Player.ID},
	}}, &created)
	id := created.Match.ID
	var joined api.JoinResponse
	s.call(http.MethodPost, "/api/v1/matches/"+id+"/seats/1/join", bob.Key, struct{}{}, &joined)
	tokens := []string{created.Tokens[0].Token, joined.Token}
	for s.view(id, "").Status != "finished" {
		for _, tok := range tokens {
			if v := s.view(id, tok); v.Status == "in_progress" && len(v.LegalMoves) > 0 {
				s.move(id, tok, v.LegalMoves[0])
			}
		}
	}

	bobTab.do("Bob's finished table", chromedp.Navigate(s.url+"/play/"+id))
	poll[bool](bobTab, "the end screen, no rematch yet", `document.getElementById("result").dataset.rematch === "none"`)
	open.await(t, "Bob's player stream", 1) // the finished table follows no match stream

	// A read the page makes now is answered before the offer and delivered after it: cut the
	// connections, and the player's stream, opened again, starts with a snapshot, after which
	// a finished table reads itself.
	bobTab.expectConsole("net::ERR_INCOMPLETE_CHUNKED_ENCODING at " + s.url + "/api/v1/players/me/stream?ticket=")
	// A cut that lands while the page is still opening its stream (the home page's may be the
	// one counted above) makes Chromium send the stream's request again by itself, with its
	// ticket spent: 401, after which the page buys another ticket.
	bobTab.expectConsole("status of 401 (Unauthorized) at " + s.url + "/api/v1/players/me/stream?ticket=")
	late.arm("/api/v1/matches/" + id)
	srv.CloseClientConnections()
	select {
	case <-late.held:
	case <-time.After(30 * time.Second):
		t.Fatal("the page did not read the match again after its player's stream reconnected")
	}
	s.call(http.MethodPost, "/api/v1/matches/"+id+"/rematch", tokens[0], nil, nil)
	const offered = `document.getElementById("rematch-note").textContent === "Ada offers a rematch: the same players, a new deal."`
	poll[bool](bobTab, "Ada's offer", offered)
	late.deliver()
	<-late.released
	// The late answer is drawn, if at all, within a turn or two of the page's script; watch a
	// good while longer than that.
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if !eval[bool](bobTab, offered) {
			t.Fatalf("a late read of the match hid the rematch offer: the end screen says %q",
				strings.TrimSpace(eval[string](bobTab, `document.getElementById("rematch-note").textContent`)))
		}
	}
}
