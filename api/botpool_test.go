package api_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/referee"
)

// botOnlyRequest is a match of four bots to target.
func botOnlyRequest(target int, bots ...string) api.CreateMatchRequest {
	req := api.CreateMatchRequest{Target: new(target)}
	for i, b := range bots {
		req.Players = append(req.Players, api.PlayerRequest{Name: fmt.Sprintf("b%d", i), Kind: "bot", Bot: b})
	}
	return req
}

// TestBotOnlyMatchesPlayOffTheRequestPath: 40 matches of bots only to 1000, created at once,
// each answer 201 with the match in progress (its bots have not played inside the request),
// the pool plays every one to its end, each audits clean, and a stream opened on one sees
// its events arrive up to match.ended. Timing is measured by BenchmarkBotOnlyCreate.
func TestBotOnlyMatchesPlayOffTheRequestPath(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 8
	}
	h := newHarness(t, apitest.WithoutPlayers(), apitest.ServiceConfig(func(c *referee.ServiceConfig) { c.BotWorkers = 2 }), apitest.Live(nil))
	srv := h.Server
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			bots := [][]string{{"greedy", "random", "greedy", "random"}, {"random", "random", "greedy", "greedy"}}[i%2]
			r := h.do(http.MethodPost, "/api/v1/matches", botOnlyRequest(1000, bots...))
			var out api.CreateMatchResponse
			if r.status != http.StatusCreated {
				t.Errorf("create %d: %d %s", i, r.status, r.body)
				return
			}
			r.decode(t, &out)
			if out.Match.Status != "in_progress" || len(out.Tokens) != 0 {
				t.Errorf("create %d: status %s, %d tokens; want in_progress and none", i, out.Match.Status, len(out.Tokens))
			}
			ids[i] = out.Match.ID
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	s, _ := openStream(t, srv.URL+"/api/v1/matches/"+ids[0]+"/stream")
	if err := h.svc.WaitBots(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		tb := &table{h: h, id: id, tokens: map[int]string{}}
		if v := tb.view(-1); v.Status != "finished" {
			t.Fatalf("match %d is %s once the pool is idle", i, v.Status)
		}
		if rep := tb.audit(-1); !rep.OK {
			t.Fatalf("match %d: %s", i, jsonOf(t, rep))
		}
	}
	last := 0
	for {
		f, ok := s.nextEvent()
		if !ok {
			t.Fatal("the stream ended before match.ended")
		}
		e := decodeFrame(t, f)
		if e.Seq != last+1 {
			t.Fatalf("the stream sent seq %d after %d", e.Seq, last)
		}
		last = e.Seq
		if f.event == "match.ended" {
			break
		}
	}
	s.ended()
}

// TestBotWorkResumesAfterRestart: a server stopped while its pool had matches of bots to play
// leaves them in progress in the store; the next server's ResumeBots plays them to their end.
func TestBotWorkResumesAfterRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "allfives.db")
	h := serverOn(t, path, 1)
	var ids []string
	for range 4 {
		r := h.do(http.MethodPost, "/api/v1/matches", botOnlyRequest(1000, "greedy", "random"))
		var out api.CreateMatchResponse
		r.decode(t, &out)
		ids = append(ids, out.Match.ID)
	}
	h.svc.Close() // the stop: the one worker leaves after the turns it is playing
	left := 0
	for _, id := range ids {
		sm, err := h.store.Match(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if sm.Summary.Status == "in_progress" {
			left++
		}
	}
	if left == 0 {
		t.Fatal("every match finished before the stop; nothing to resume")
	}
	h2 := serverOn(t, path, 2)
	n, err := h2.svc.ResumeBots(context.Background())
	if err != nil || n != left {
		t.Fatalf("resumed %d matches (%v), want %d", n, err, left)
	}
	if err := h2.svc.WaitBots(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		tb := &table{h: h2, id: id, tokens: map[int]string{}}
		if v := tb.view(-1); v.Status != "finished" {
			t.Fatalf("match %s is %s after the resume", id, v.Status)
		}
		if rep := tb.audit(-1); !rep.OK {
			t.Fatalf("%s", jsonOf(t, rep))
		}
	}
}
