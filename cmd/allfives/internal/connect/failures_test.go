package connect

import (
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/cmd/allfives/internal/engine"
)

// TestARefusedKeyStopsConnect: a key the server refuses stops connect at once with an error
// that says so.
func TestARefusedKeyStopsConnect(t *testing.T) {
	srv := startServer(t, nil)
	c := runConnector(t, Config{Server: srv.URL, Key: "afk_" + strings.Repeat("x", 43), Engine: refEngine(t, "greedy")})
	err := c.result(t, time.Minute)
	if err == nil || !strings.Contains(err.Error(), "refused the key") {
		t.Fatalf("connect answered %v, want the key refused", err)
	}
}

// TestAnEngineThatNeverSaysReadyStopsConnect: with a live match to play and an engine that
// stays silent, connect stops once the ready timeout passes, with ErrNotReady.
func TestAnEngineThatNeverSaysReadyStopsConnect(t *testing.T) {
	srv := startServer(t, nil)
	ada := newPlayer(t, srv.URL, "Ada", false)
	vsBot(t, srv.URL, ada, nil)
	c := runConnector(t, Config{Server: srv.URL, Key: ada.Key, Engine: self(t) + " mute", ReadyTimeout: 300 * time.Millisecond})
	err := c.result(t, time.Minute)
	if !errors.Is(err, engine.ErrNotReady) || !strings.Contains(err.Error(), "within 300ms") {
		t.Fatalf("connect answered %v, want the engine not ready within 300ms", err)
	}
}

// TestThreeIllegalAnswersLeaveTheTurn: an engine that answers only moves that are not in
// the list gets an error line for each, and after the third the connector sends the move no
// more and leaves the turn (to the clock's autoplay): the match stays where it was.
func TestThreeIllegalAnswersLeaveTheTurn(t *testing.T) {
	srv := startServer(t, nil)
	ada := newPlayer(t, srv.URL, "Ada", false)
	id := vsBot(t, srv.URL, ada, map[string]any{"turn_seconds": 600})
	_, before := matchState(t, srv.URL, id)
	c := runConnector(t, Config{Server: srv.URL, Key: ada.Key, Engine: self(t) + " liar"})
	waitFor(t, time.Minute, "three illegal answers", func() bool {
		return strings.Contains(c.log.String(), "three illegal answers")
	})
	if n := strings.Count(c.log.String(), `msg="illegal move"`); n != 3 {
		t.Fatalf("%d illegal moves logged, want 3:\n%s", n, c.log.String())
	}
	if _, v := matchState(t, srv.URL, id); v != before {
		t.Fatalf("the match moved from version %d to %d though every answer was illegal", before, v)
	}
	var legal struct {
		LegalMoves []any `json:"legal_moves"`
	}
	call(t, srv.URL, ada.Key, http.MethodGet, "/matches/"+id+"/legal-moves", nil, http.StatusOK, &legal)
	if len(legal.LegalMoves) == 0 {
		t.Fatal("it is no longer Ada's turn")
	}
}

// TestAnEngineThatDiesIsRestarted: an engine that exits mid-match is started again, logged,
// sent the match's log again, and plays the match to its end.
func TestAnEngineThatDiesIsRestarted(t *testing.T) {
	srv := startServer(t, nil)
	ada := newPlayer(t, srv.URL, "Ada", true)
	id := vsBot(t, srv.URL, ada, map[string]any{"target": 50})
	mark := filepath.Join(t.TempDir(), "died")
	c := runConnector(t, Config{Server: srv.URL, Key: ada.Key, Engine: self(t) + " flaky " + mark, Matches: 1})
	if err := c.result(t, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	if status, _ := matchState(t, srv.URL, id); status != "finished" {
		t.Fatalf("the match is %s, want finished", status)
	}
	log := c.log.String()
	if strings.Count(log, `msg="engine started"`) != 2 || !strings.Contains(log, "the engine exited; starting it again") {
		t.Fatalf("the log does not tell of one restart:\n%s", log)
	}
}
