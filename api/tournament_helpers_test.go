package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/tournament"
	"github.com/allfives/allfives/repository/sqlite"
)

// cup is the real router with the tournament service over a real SQLite file, its driver
// running as serve runs it.
type cup struct {
	t     *testing.T
	e     *echo.Echo
	svc   *referee.MatchService
	tours *tournaments.Service
	path  string
	stop  func()
}

func newCup(t *testing.T) *cup {
	t.Helper()
	return openCup(t, filepath.Join(t.TempDir(), "allfives.db"))
}

// openCup starts the server over the database at path (a restart when it exists).
func openCup(t *testing.T, path string) *cup {
	t.Helper()
	h := newHarness(t, apitest.SQLiteFile(path, sqlite.Options{Sync: "normal"}), apitest.Reviews(nil),
		apitest.Tournaments(func(c *tournaments.Config) { c.TableGrace = time.Millisecond }))
	return &cup{t: t, e: h.e, svc: h.svc, tours: h.Tournaments, path: path, stop: h.Stop}
}

// call sends a request and returns the status and body.
func (c *cup) call(method, path, key string, body any) (int, []byte) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	rec := httptest.NewRecorder()
	c.e.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

// must sends a request that must answer want, and decodes the answer into out.
func (c *cup) must(want int, method, path, key string, body, out any) []byte {
	c.t.Helper()
	code, b := c.call(method, path, key, body)
	if code != want {
		c.t.Fatalf("%s %s: %d %s, want %d", method, path, code, b, want)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			c.t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
	return b
}

// player creates a player and returns its id and key.
func (c *cup) player(name string) (id, key string) {
	var out api.CreatePlayerResponse
	c.must(http.StatusCreated, "POST", "/api/v1/players", "", map[string]string{"name": name}, &out)
	return out.Player.ID, out.Key
}

func (c *cup) tournament(id string) api.TournamentView {
	var v api.TournamentView
	c.must(http.StatusOK, "GET", "/api/v1/tournaments/"+id, "", nil, &v)
	return v
}

// waitFor polls tournament id until ok holds of it (the driver runs in the background).
func (c *cup) waitFor(id string, what string, ok func(api.TournamentView) bool) api.TournamentView {
	c.t.Helper()
	for range 3000 {
		if v := c.tournament(id); ok(v) {
			return v
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.t.Fatalf("tournament %s never %s: %+v", id, what, c.tournament(id))
	return api.TournamentView{}
}

// matchExport is a match's export as the offline tools read it.
type matchExport struct {
	Match struct {
		ID         string `json:"id"`
		Status     string `json:"status"`
		Commitment string `json:"commitment"`
		Scores     []int  `json:"scores"`
		Seats      []struct {
			Name   string `json:"name"`
			Kind   string `json:"kind"`
			Bot    string `json:"bot"`
			Player string `json:"player"`
		} `json:"seats"`
	} `json:"match"`
	Events []struct {
		Seq  int             `json:"seq"`
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	} `json:"events"`
}

func (c *cup) export(id, key string) matchExport {
	var x matchExport
	c.must(http.StatusOK, "GET", "/api/v1/matches/"+id+"/export", key, nil, &x)
	return x
}

// offline recomputes a tournament from its export and its matches' exports, as
// `allfives tournament` does, with the engine alone.
func (c *cup) offline(id string) tournament.Report {
	var tx api.TournamentExport
	c.must(http.StatusOK, "GET", "/api/v1/tournaments/"+id+"/export", "", nil, &tx)
	links := make([]tournament.Link, len(tx.Events))
	for i, e := range tx.Events {
		links[i] = tournament.Link{Event: tournament.Event{Seq: e.Seq, Type: tournament.EventType(e.Type), At: e.At, Data: e.Data}, PrevHash: e.PrevHash, Hash: e.Hash}
	}
	names := map[string]string{}
	for _, e := range tx.Tournament.Entries {
		names[e.Bot+"/"+e.Name] = e.Player
	}
	facts := map[string]tournament.MatchFacts{}
	for _, r := range tx.Tournament.Rounds {
		for _, t := range r.Tables {
			x := c.export(t.Match, "")
			f := tournament.MatchFacts{ID: t.Match, Commitment: x.Match.Commitment, Finished: x.Match.Status == "finished"}
			for seat, s := range x.Match.Seats {
				who := s.Player
				if s.Kind == "bot" {
					who = names[s.Bot+"/"+s.Name]
				}
				f.Players = append(f.Players, who)
				side := seat
				if tx.Tournament.Spec.Format == "2v2" {
					side = seat % 2
				}
				f.Scores = append(f.Scores, x.Match.Scores[side])
			}
			for _, e := range x.Events {
				if e.Type == "match.ended" {
					var me struct {
						Seed string `json:"seed"`
					}
					_ = json.Unmarshal(e.Data, &me)
					f.Seed = me.Seed
				}
			}
			facts[t.Match] = f
		}
	}
	return tournament.Audit(id, links, facts)
}

// createTournament creates a tournament as key's player and enters the bots given.
func (c *cup) createTournament(key string, req api.CreateTournamentRequest, bots ...string) string {
	var v api.TournamentView
	c.must(http.StatusCreated, "POST", "/api/v1/tournaments", key, req, &v)
	for _, b := range bots {
		c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+v.ID+"/entries", key, map[string]string{"bot": b}, nil)
	}
	return v.ID
}

func repeatBots(n int, names ...string) []string {
	var out []string
	for i := range n {
		out = append(out, names[i%len(names)])
	}
	return out
}

func pairKey(a, b string) string {
	if a > b {
		a, b = b, a
	}
	return a + " " + b
}

func contains(b []byte, s string) bool { return s != "" && strings.Contains(string(b), s) }

var _ = fmt.Sprintf
