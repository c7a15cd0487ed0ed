package connect

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
)

// liveServer is a server on a fixed address that a test can stop and start again over the
// same database: the server going away and coming back, as a connector sees it.
type liveServer struct {
	t    *testing.T
	addr string
	db   string
	s    *server.Server
	http *http.Server
}

func (l *liveServer) start() {
	l.t.Helper()
	cfg := server.DefaultConfig()
	cfg.DB, cfg.Sync, cfg.Limits, cfg.BotSeed, cfg.Review = l.db, "normal", server.Limits{}, 7, apitest.SmallReview
	cfg.SweepEvery, cfg.RatingsEvery = 50*time.Millisecond, 50*time.Millisecond
	s, err := server.Start(context.Background(), cfg)
	if err != nil {
		l.t.Fatal(err)
	}
	var ln net.Listener
	waitFor(l.t, 30*time.Second, "the address to be free again", func() bool {
		ln, err = net.Listen("tcp", l.addr)
		return err == nil
	})
	l.addr = ln.Addr().String()
	l.s, l.http = s, &http.Server{Handler: s.Handler}
	go l.http.Serve(ln)
}

// stop closes every connection at once, as a crash would, and the store.
func (l *liveServer) stop() {
	l.http.Close()
	l.s.Close()
}

// TestConnectRidesOutAServerRestart: the server goes away mid-match and comes back on the
// same address and database; the connector opens its stream again, resumes the match and
// plays it to its end.
func TestConnectRidesOutAServerRestart(t *testing.T) {
	l := &liveServer{t: t, addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "allfives.db")}
	l.start()
	t.Cleanup(func() { l.stop() })
	base := "http://" + l.addr
	ada := newPlayer(t, base, "Ada", true)
	id := vsBot(t, base, ada, map[string]any{"target": 250})
	c := runConnector(t, Config{Server: base, Key: ada.Key, Engine: self(t) + " slow", Matches: 1})
	waitFor(t, 2*time.Minute, "the match to be under way", func() bool {
		status, v := matchState(t, base, id)
		return status == "in_progress" && v >= 12
	})
	l.stop()
	l.start()
	if err := c.result(t, 4*time.Minute); err != nil {
		t.Fatal(err)
	}
	if status, _ := matchState(t, base, id); status != "finished" {
		t.Fatalf("the match is %s, want finished", status)
	}
	auditOK(t, base, id)
	if !strings.Contains(c.log.String(), "the player's stream was lost") {
		t.Fatalf("the connector's log does not tell of the lost stream:\n%s", c.log.String())
	}
}
