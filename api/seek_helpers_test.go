package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/matchmaking"
	"github.com/allfives/allfives/repository/sqlite"
)

// seekStore is what a server with Play now needs of its store.
type seekStore interface {
	referee.EventStore
	players.Store
	ratings.Store
	seeks.Store
	api.Pinger
}

// seekServer is one instance of the real router with players, ratings and seeks, its matcher
// running until stop (or the test's end).
type seekServer struct {
	t     testing.TB
	srv   *httptest.Server
	seeks *seeks.Service
	svc   *referee.MatchService
	stop  func()
}

// newSeekServer starts an instance over store with rule (limits off unless an option sets them).
func newSeekServer(t testing.TB, store seekStore, rule matchmaking.Rule, opts ...func(*api.Config)) *seekServer {
	t.Helper()
	h := newHarness(t, apitest.WithStore(store), apitest.Matcher(rule, 20*time.Millisecond, nil), apitest.Live(nil),
		apitest.ServerConfig(func(c *api.Config) {
			c.Ratings, c.StreamHeartbeat = ratings.NewService(store), 50*time.Millisecond
			for _, o := range opts {
				o(c)
			}
		}))
	s := &seekServer{t: t, srv: h.Server, seeks: h.Seeks, svc: h.Service}
	s.stop = func() { h.StopMatcher(); h.Server.Close() }
	return s
}

// openSQLiteSeeks opens a fresh SQLite store, closed when t ends.
func openSQLiteSeeks(t testing.TB) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "allfives.db"), sqlite.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// seekReply is one answer: its status and body.
type seekReply struct {
	status int
	body   []byte
	header http.Header
}

// do sends method path with key (none when "") and body (none when nil).
func (s *seekServer) do(method, path, key string, body any) seekReply {
	s.t.Helper()
	a := apitest.Call(s.t, method, s.srv.URL+path, key, body)
	return seekReply{status: a.Status, body: a.Body, header: a.Header}
}

// want checks the status and decodes the body into v (when not nil).
func (r seekReply) want(t testing.TB, status int, v any) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	if v != nil {
		if err := json.Unmarshal(r.body, v); err != nil {
			t.Fatalf("%v: %s", err, r.body)
		}
	}
}

// problem checks a problem+json answer of status and code.
func (r seekReply) problem(t testing.TB, status int, code string) {
	t.Helper()
	var p api.Problem
	r.want(t, status, &p)
	if p.Code != code {
		t.Fatalf("code %s, want %s: %s", p.Code, code, r.body)
	}
}

// newSeeker creates a player and returns its id and key.
func (s *seekServer) newSeeker(name string) (id, key string) {
	s.t.Helper()
	var out api.CreatePlayerResponse
	s.do(http.MethodPost, "/api/v1/players", "", api.CreatePlayerRequest{Name: name}).want(s.t, http.StatusCreated, &out)
	return out.Player.ID, out.Key
}

// seek makes a seek with key and returns it.
func (s *seekServer) seek(key string, req api.CreateSeekRequest) api.SeekView {
	s.t.Helper()
	var out api.SeekResponse
	s.do(http.MethodPost, "/api/v1/seeks", key, req).want(s.t, http.StatusCreated, &out)
	return out.Seek
}

// get reads seek id with key.
func (s *seekServer) get(key, id string) api.SeekView {
	s.t.Helper()
	var out api.SeekResponse
	s.do(http.MethodGet, "/api/v1/seeks/"+id, key, nil).want(s.t, http.StatusOK, &out)
	return out.Seek
}

// awaitSeek reads seek id until it is no longer searching (or pairing), or fails after a
// generous while.
func (s *seekServer) awaitSeek(key, id string) api.SeekView {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		v := s.get(key, id)
		if v.Status != "searching" && v.Status != "pairing" {
			return v
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("seek %s still %s", id, v.Status)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// matchView reads match id with key.
func (s *seekServer) matchView(key, id string) api.MatchView {
	s.t.Helper()
	var v api.MatchView
	s.do(http.MethodGet, "/api/v1/matches/"+id, key, nil).want(s.t, http.StatusOK, &v)
	return v
}

func seekName(prefix string, i int) string { return fmt.Sprintf("%s%02d", prefix, i) }

// audited checks that match id audits (every kind of match does, docs/api-matches.md "Consent").
func (s *seekServer) audited(id string) {
	s.t.Helper()
	var rep api.AuditReport
	s.do(http.MethodGet, "/api/v1/matches/"+id+"/audit", "", nil).want(s.t, http.StatusOK, &rep)
	if !rep.OK {
		s.t.Fatalf("the paired match %s does not audit: %+v", id, rep)
	}
}
