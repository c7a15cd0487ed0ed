package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/cmd/allfives/internal/server"
	"github.com/allfives/allfives/cmd/allfives/internal/verify"
	"github.com/allfives/allfives/domain/app/referee"
)

// kindServer is the server serve wires (internal/server: reviews, ratings, seeks,
// tournaments, streams, sweeper all on, limits off) on one database, on a clock of the
// test's: its sweeper waits an hour of real time, so the test sweeps when it moves the clock.
type kindServer struct {
	t     *testing.T
	h     http.Handler
	svc   *referee.MatchService
	clock *apitest.Clock
}

func newKindServer(t *testing.T, db string) *kindServer {
	t.Helper()
	clock := apitest.NewClock(time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC))
	cfg := server.DefaultConfig()
	cfg.DB, cfg.Sync, cfg.Limits = db, "normal", server.Limits{}
	cfg.Clock, cfg.BotSeed, cfg.Review, cfg.ReviewWorkers = clock, 11, apitest.SmallReview, 2
	cfg.WaitingTTL, cfg.SweepEvery, cfg.RatingsEvery = time.Hour, time.Hour, 20*time.Millisecond
	s, err := server.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return &kindServer{t: t, h: s.Handler, svc: s.Matches, clock: clock}
}

// call sends one request through the router with credential as its bearer (none when "") and
// decodes a JSON answer into out when it is not nil; the status must be want.
func (k *kindServer) call(method, path string, body any, credential string, want int, out any) []byte {
	k.t.Helper()
	var rd *bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			k.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if credential != "" {
		req.Header.Set("Authorization", "Bearer "+credential)
	}
	rec := httptest.NewRecorder()
	k.h.ServeHTTP(rec, req)
	if rec.Code != want {
		k.t.Fatalf("%s %s: %d, want %d: %s", method, path, rec.Code, want, rec.Body.String())
	}
	if out != nil {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			k.t.Fatalf("%s %s: %v: %s", method, path, err, rec.Body.String())
		}
	}
	return rec.Body.Bytes()
}

// player creates a player and answers its id and key.
func (k *kindServer) player(name string) (string, string) {
	k.t.Helper()
	var out api.CreatePlayerResponse
	k.call(http.MethodPost, "/api/v1/players", api.CreatePlayerRequest{Name: name}, "", http.StatusCreated, &out)
	return out.Player.ID, out.Key
}

// kindMatch is one match the test made, and the credential of each seat that has a holder.
type kindMatch struct {
	id    string
	creds map[int]string
}

func (k *kindServer) create(req api.CreateMatchRequest, key string) (kindMatch, api.CreateMatchResponse) {
	k.t.Helper()
	var out api.CreateMatchResponse
	k.call(http.MethodPost, "/api/v1/matches", req, key, http.StatusCreated, &out)
	m := kindMatch{id: out.Match.ID, creds: map[int]string{}}
	for _, tok := range out.Tokens {
		m.creds[tok.Seat] = tok.Token
	}
	return m, out
}

func (k *kindServer) path(id, suffix string) string { return "/api/v1/matches/" + id + suffix }

// view reads match id as credential's holder sees it.
func (k *kindServer) view(id, credential string) api.MatchView {
	k.t.Helper()
	var v api.MatchView
	k.call(http.MethodGet, k.path(id, ""), nil, credential, http.StatusOK, &v)
	return v
}

// join takes seat of m with credential (a player key, or "" with an invite) and keeps its token.
func (k *kindServer) join(m kindMatch, seat int, name, invite, key string) api.JoinResponse {
	k.t.Helper()
	var out api.JoinResponse
	k.call(http.MethodPost, k.path(m.id, fmt.Sprintf("/seats/%d/join", seat)), api.JoinRequest{Name: name, Invite: invite}, key, http.StatusCreated, &out)
	m.creds[seat] = out.Token
	return out
}

// playOut plays m to its end through the API, each seat to move with its credential taking a
// legal move (a varied one, so both ends and many tiles are played).
func (k *kindServer) playOut(m kindMatch) api.MatchView {
	k.t.Helper()
	for turn := 0; turn < 5000; turn++ {
		v := k.view(m.id, "")
		if v.Status != "in_progress" {
			return v
		}
		seat := *v.Turn
		cred, ok := m.creds[seat]
		if !ok {
			k.t.Fatalf("match %s: seat %d is to move and the test holds no credential for it", m.id, seat)
		}
		var lm api.LegalMovesResponse
		k.call(http.MethodGet, k.path(m.id, "/legal-moves"), nil, cred, http.StatusOK, &lm)
		mv := lm.LegalMoves[(turn*5)%len(lm.LegalMoves)]
		req := api.MoveRequest{Action: mv.Action}
		if mv.Action == "play" {
			req.Tile, req.End = &mv.Tile, &mv.End
		}
		k.call(http.MethodPost, k.path(m.id, "/moves"), req, cred, http.StatusOK, nil)
	}
	k.t.Fatalf("match %s did not end in 5000 turns", m.id)
	return api.MatchView{}
}

// sweep runs the clock's sweeper once and requires it to act on want matches.
func (k *kindServer) sweep(want int) {
	k.t.Helper()
	if n, err := k.svc.Sweep(context.Background()); err != nil || n != want {
		k.t.Fatalf("sweep: %d matches, %v; want %d", n, err, want)
	}
}

// audits checks match id as the audit route and allfives verify judge it: GET /audit is ok
// with every check holding, and the JSON export, run through verify's own checks, holds up.
// A finished match is reviewed first, so that its export's view carries "review": "done".
func (k *kindServer) audits(kind, id string) {
	k.t.Helper()
	var rep api.AuditReport
	k.call(http.MethodGet, k.path(id, "/audit"), nil, "", http.StatusOK, &rep)
	if !rep.OK || rep.FirstBadSeq != nil {
		k.t.Errorf("%s: GET /audit of %s: %s", kind, id, jsonOf(rep))
	}
	export := k.call(http.MethodGet, k.path(id, "/export"), nil, "", http.StatusOK, nil)
	var e struct {
		Match api.MatchView `json:"match"`
	}
	if err := json.Unmarshal(export, &e); err != nil {
		k.t.Fatal(err)
	}
	if e.Match.Status == "finished" && e.Match.Review != "done" {
		k.t.Errorf("%s: the export of %s says review %q, want done", kind, id, e.Match.Review)
	}
	if err := verify.Export(export).Err(); err != nil {
		k.t.Errorf("%s: allfives verify of %s's export: %v", kind, id, err)
	}
}

// review asks for the reviews of the finished matches among ids and waits until each is done.
func (k *kindServer) review(ids map[string]string) {
	k.t.Helper()
	asked := map[string]string{}
	for kind, id := range ids {
		if k.view(id, "").Status == "finished" {
			k.call(http.MethodPost, k.path(id, "/review"), nil, "", http.StatusAccepted, nil)
			asked[kind] = id
		}
	}
	for kind, id := range asked {
		for i := 0; ; i++ {
			v := k.view(id, "")
			if v.Review == "done" {
				break
			}
			if v.Review == "failed" || i > 6000 {
				k.t.Fatalf("%s: the review of %s is %q", kind, id, v.Review)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// finished waits until match id has ended (a match of bots only, played by the bot pool).
func (k *kindServer) finished(id string) api.MatchView {
	k.t.Helper()
	for range 6000 {
		if v := k.view(id, ""); v.Status != "in_progress" {
			return v
		}
		time.Sleep(5 * time.Millisecond)
	}
	k.t.Fatalf("match %s never ended", id)
	return api.MatchView{}
}
