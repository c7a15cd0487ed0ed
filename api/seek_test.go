package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/matchmaking"
)

// humansOnly pairs at once within the default window and never seats bots.
var humansOnly = matchmaking.Rule{Window: 2, Growth: 1, MaxWindow: 15}

// TestSeekPairing: two players who seek the same are paired into one match, dealt at once,
// each seat bound to its player, each seek matched with the match and its player's seat.
func TestSeekPairing(t *testing.T) {
	s := newSeekServer(t, openSQLiteSeeks(t), humansOnly)
	ada, adaKey := s.newSeeker("Ada")
	bob, bobKey := s.newSeeker("Bob")
	req := api.CreateSeekRequest{Format: "2p", Rated: true}
	a := s.seek(adaKey, req)
	if a.Status != "searching" || a.Format != "2p" || !a.Rated || a.TurnSeconds != 60 || a.Match != nil {
		t.Fatalf("a new seek: %+v", a)
	}
	b := s.seek(bobKey, req)
	am, bm := s.awaitSeek(adaKey, a.ID), s.awaitSeek(bobKey, b.ID)
	if am.Status != "matched" || bm.Status != "matched" || *am.Match != *bm.Match || *am.Seat == *bm.Seat {
		t.Fatalf("seeks after pairing: %+v %+v", am, bm)
	}
	v := s.matchView(adaKey, *am.Match)
	if v.Status != "in_progress" || !v.Rated || v.TurnSeconds != 60 || len(v.Seats) != 2 {
		t.Fatalf("the paired match: %+v", v)
	}
	if v.Seats[*am.Seat].Player != ada || v.Seats[*bm.Seat].Player != bob || v.Seats[*am.Seat].Name != "Ada" {
		t.Fatalf("seats not bound to their seekers: %+v", v.Seats)
	}
	if v.Hand == nil {
		t.Fatalf("ada's key does not read her seat: %+v", v)
	}
	s.audited(*am.Match)
}

// TestSeekCompatibility: seeks of other formats, rated or not, or another clock never meet.
func TestSeekCompatibility(t *testing.T) {
	s := newSeekServer(t, openSQLiteSeeks(t), humansOnly)
	var ids, keys []string
	for i, req := range []api.CreateSeekRequest{
		{Format: "2p", Rated: true}, {Format: "2p", Rated: false}, {Format: "3p", Rated: true}, {Format: "2p", Rated: true, TurnSeconds: 30},
	} {
		_, key := s.newSeeker(seekName("Lone", i))
		ids, keys = append(ids, s.seek(key, req).ID), append(keys, key)
	}
	// A compatible pair (a target of their own) shows the matcher has run since: they meet, the others do not.
	_, k1 := s.newSeeker("Pat")
	_, k2 := s.newSeeker("Quinn")
	p := s.seek(k1, api.CreateSeekRequest{Format: "2p", Rated: true, Target: 150})
	q := s.seek(k2, api.CreateSeekRequest{Format: "2p", Rated: true, Target: 150})
	if s.awaitSeek(k1, p.ID).Status != "matched" || s.awaitSeek(k2, q.ID).Status != "matched" {
		t.Fatal("the compatible pair did not meet")
	}
	for i, id := range ids {
		if v := s.get(keys[i], id); v.Status != "searching" {
			t.Fatalf("seek %d of its own pool is %s", i, v.Status)
		}
	}
}

// TestSeekBotFallback: a lone seek gets bots after --seek-bot-after, the match bound and dealt.
func TestSeekBotFallback(t *testing.T) {
	s := newSeekServer(t, openSQLiteSeeks(t), matchmaking.Rule{Window: 2, Growth: 1, MaxWindow: 15, BotAfter: 300 * time.Millisecond})
	ada, key := s.newSeeker("Ada")
	sk := s.seek(key, api.CreateSeekRequest{Format: "3p", Rated: true})
	got := s.awaitSeek(key, sk.ID)
	if got.Status != "matched" {
		t.Fatalf("lone seek: %+v", got)
	}
	v := s.matchView(key, *got.Match)
	bots := map[string]bool{}
	for _, seat := range v.Seats {
		switch {
		case seat.Seat == *got.Seat:
			if seat.Player != ada || seat.Kind != "human" {
				t.Fatalf("the seeker's seat: %+v", seat)
			}
		case seat.Kind == "bot" && strings.HasPrefix(seat.Name, "bot-"):
			bots[seat.Bot] = true
		default:
			t.Fatalf("a seat neither the seeker's nor a bot's: %+v", seat)
		}
	}
	if len(bots) != 2 || !v.Rated || v.Status != "in_progress" {
		t.Fatalf("bots %v, match %+v", bots, v)
	}
	s.audited(*got.Match)
}

// TestSeekCancel: DELETE cancels a searching seek, which then never pairs, and frees the
// format for another seek; DELETE again answers it as it is.
func TestSeekCancel(t *testing.T) {
	s := newSeekServer(t, openSQLiteSeeks(t), humansOnly)
	_, key := s.newSeeker("Ada")
	sk := s.seek(key, api.CreateSeekRequest{Format: "4p"})
	var out api.SeekResponse
	s.do(http.MethodDelete, "/api/v1/seeks/"+sk.ID, key, nil).want(t, http.StatusOK, &out)
	if out.Seek.Status != "cancelled" || out.Seek.Reason != "cancelled" {
		t.Fatalf("cancelled: %+v", out.Seek)
	}
	s.do(http.MethodDelete, "/api/v1/seeks/"+sk.ID, key, nil).want(t, http.StatusOK, &out)
	if out.Seek.Status != "cancelled" || s.get(key, sk.ID).Status != "cancelled" {
		t.Fatalf("a second cancel: %+v", out.Seek)
	}
	s.seek(key, api.CreateSeekRequest{Format: "4p"}) // the format is free again
}

// TestSeekAlreadySeeking: one live seek per player and format.
func TestSeekAlreadySeeking(t *testing.T) {
	s := newSeekServer(t, openSQLiteSeeks(t), humansOnly)
	_, key := s.newSeeker("Ada")
	s.seek(key, api.CreateSeekRequest{Format: "2p"})
	s.do(http.MethodPost, "/api/v1/seeks", key, api.CreateSeekRequest{Format: "2p", Rated: true}).problem(t, http.StatusConflict, "ALREADY_SEEKING")
	s.seek(key, api.CreateSeekRequest{Format: "2v2"}) // another format
}

// TestSeekOwnerOnly: a seek is its player's: another player's key is 404, no key 401, a key
// that is no key 401.
func TestSeekOwnerOnly(t *testing.T) {
	s := newSeekServer(t, openSQLiteSeeks(t), humansOnly)
	_, ada := s.newSeeker("Ada")
	_, bob := s.newSeeker("Bob")
	sk := s.seek(ada, api.CreateSeekRequest{Format: "3p"})
	s.do(http.MethodGet, "/api/v1/seeks/"+sk.ID, bob, nil).problem(t, http.StatusNotFound, "SEEK_NOT_FOUND")
	s.do(http.MethodDelete, "/api/v1/seeks/"+sk.ID, bob, nil).problem(t, http.StatusNotFound, "SEEK_NOT_FOUND")
	s.do(http.MethodGet, "/api/v1/seeks/"+sk.ID, "", nil).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	s.do(http.MethodDelete, "/api/v1/seeks/"+sk.ID, "", nil).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	s.do(http.MethodPost, "/api/v1/seeks", "", api.CreateSeekRequest{Format: "2p"}).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	s.do(http.MethodGet, "/api/v1/seeks/"+sk.ID, "afk_notakey", nil).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	s.do(http.MethodGet, "/api/v1/seeks/nosuchseek", ada, nil).problem(t, http.StatusNotFound, "SEEK_NOT_FOUND")
	if s.get(ada, sk.ID).Status != "searching" {
		t.Fatal("bob's cancel changed ada's seek")
	}
}

// TestSeekInvalid: what is not a seek is 400.
func TestSeekInvalid(t *testing.T) {
	s := newSeekServer(t, openSQLiteSeeks(t), humansOnly)
	_, key := s.newSeeker("Ada")
	for _, body := range []any{
		api.CreateSeekRequest{Format: "5p"}, api.CreateSeekRequest{},
		api.CreateSeekRequest{Format: "2p", TurnSeconds: 5}, api.CreateSeekRequest{Format: "2p", Target: 7},
		map[string]any{"format": "2p", "clock": 60},
	} {
		s.do(http.MethodPost, "/api/v1/seeks", key, body).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	}
}

// TestSeekRotationEnds: rotating the key cancels the player's searching seeks.
func TestSeekRotationEnds(t *testing.T) {
	s := newSeekServer(t, openSQLiteSeeks(t), humansOnly)
	_, key := s.newSeeker("Ada")
	a := s.seek(key, api.CreateSeekRequest{Format: "2p"})
	b := s.seek(key, api.CreateSeekRequest{Format: "3p"})
	var rotated api.PlayerKeyResponse
	s.do(http.MethodPost, "/api/v1/players/me/key", key, nil).want(t, http.StatusOK, &rotated)
	s.do(http.MethodGet, "/api/v1/seeks/"+a.ID, key, nil).problem(t, http.StatusUnauthorized, "UNAUTHORIZED")
	for _, id := range []string{a.ID, b.ID} {
		if v := s.get(rotated.Key, id); v.Status != "cancelled" || v.Reason != "key_rotated" {
			t.Fatalf("seek after rotation: %+v", v)
		}
	}
}

// TestSeekStreamMatched: the player's stream sends matched, with the seek and the seat,
// before the match's other events.
func TestSeekStreamMatched(t *testing.T) {
	s := newSeekServer(t, openSQLiteSeeks(t), humansOnly)
	_, ada := s.newSeeker("Ada")
	_, bob := s.newSeeker("Bob")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.srv.URL+"/api/v1/players/me/stream", nil)
	req.Header.Set("Authorization", "Bearer "+ada)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("stream: %v %v", res, err)
	}
	defer res.Body.Close()
	events := bufio.NewScanner(res.Body)
	next := func() (string, api.PlayerEvent) {
		var name string
		for events.Scan() {
			line := events.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && name != "snapshot":
				var e api.PlayerEvent
				if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e); err != nil {
					t.Fatal(err)
				}
				return name, e
			}
		}
		t.Fatalf("the stream ended: %v", events.Err())
		return "", api.PlayerEvent{}
	}
	for events.Scan() && events.Text() != "" { // the snapshot
	}
	sk := s.seek(ada, api.CreateSeekRequest{Format: "2p"})
	s.seek(bob, api.CreateSeekRequest{Format: "2p"})
	done := s.awaitSeek(ada, sk.ID)
	name, e := next()
	if name != "matched" || e.Seek != sk.ID || e.Match != *done.Match || e.Seat != *done.Seat {
		t.Fatalf("first event %s %+v, want matched of seek %s in %s seat %d", name, e, sk.ID, *done.Match, *done.Seat)
	}
}

// TestSeekLimit: seeks count against --limit-seeks per player (and per address): one client
// cannot flood the pool by seeking and cancelling.
func TestSeekLimit(t *testing.T) {
	s := newSeekServer(t, openSQLiteSeeks(t), humansOnly, func(c *api.Config) {
		c.Limits = api.Limits{Seeks: api.Rate{N: 2, Per: time.Hour}}
	})
	_, key := s.newSeeker("Ada")
	for range 2 {
		sk := s.seek(key, api.CreateSeekRequest{Format: "4p"})
		s.do(http.MethodDelete, "/api/v1/seeks/"+sk.ID, key, nil).want(t, http.StatusOK, nil)
	}
	r := s.do(http.MethodPost, "/api/v1/seeks", key, api.CreateSeekRequest{Format: "4p"})
	r.problem(t, http.StatusTooManyRequests, "RATE_LIMITED")
	if r.header.Get("Retry-After") == "" {
		t.Fatal("a refused seek without Retry-After")
	}
}
