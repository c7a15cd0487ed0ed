package referee_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/referee/refereetest"
	"github.com/allfives/allfives/repository/memstore"
)

const vectorSeed = "1220bce908f962d172dd71edf7f3215397eaadbf54c4d03b1fc8334e91eaf12a"

// firstLegal is a test strategy: always the first legal move.
type firstLegal struct{}

func (firstLegal) Choose(_ context.Context, v domain.SeatView) (domain.Move, error) {
	return v.LegalMoves[0].Move(), nil
}

func newService(t *testing.T, store referee.EventStore, cacheSize int) *referee.MatchService {
	t.Helper()
	return referee.NewMatchService(referee.ServiceConfig{
		Store: store, Clock: refereetest.NewClock(time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)),
		Bots: map[string]domain.Strategy{"first": firstLegal{}}, CacheSize: cacheSize,
	})
}

func twoHumans(seed string) referee.CreateRequest {
	return referee.CreateRequest{Players: []domain.PlayerInfo{
		{Name: "ann", Kind: domain.Human}, {Name: "bob", Kind: domain.Human},
	}, Seed: seed}
}

func create(t *testing.T, svc *referee.MatchService, req referee.CreateRequest) referee.Created {
	t.Helper()
	c, err := svc.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func seatOf(t *testing.T, svc *referee.MatchService, id, token string) domain.Viewer {
	t.Helper()
	v, err := svc.Authenticate(context.Background(), id, token)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCreateAndAuthenticate(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, memstore.New(), 16)
	c := create(t, svc, twoHumans(vectorSeed))
	if len(c.Tokens) != 2 || c.Tokens[0].Seat != 0 || c.Tokens[1].Seat != 1 || c.Tokens[0].Token == c.Tokens[1].Token {
		t.Fatalf("tokens %+v", c.Tokens)
	}
	if h := c.Match.Hand; h == nil || h.Left != nil || h.Right != nil || h.Total != 0 || len(h.Line) != 0 {
		t.Fatalf("before the lead the line has no ends: %+v", c.Match.Hand)
	}
	if c.Match.Version != 2 || !c.Match.Seeded || c.Match.Commitment != "86cfd62e1714b92439d8cfdbd84d04f06828a16a3833352918cb61bf2ce733bb" || c.Match.You != nil {
		t.Fatalf("created view %+v", c.Match)
	}
	for i, tok := range c.Tokens {
		if seat, ok := seatOf(t, svc, c.Match.ID, tok.Token).Seat(); !ok || seat != i {
			t.Errorf("token %d authenticates as seat %d (%v)", i, seat, ok)
		}
	}
	if _, ok := seatOf(t, svc, c.Match.ID, "").Seat(); ok {
		t.Error("no token should be a spectator")
	}
	if _, err := svc.Authenticate(ctx, c.Match.ID, "not-a-token"); !errors.Is(err, domain.ErrUnauthorized) {
		t.Errorf("bad token: %v", err)
	}
	if _, err := svc.Authenticate(ctx, "nope", ""); !errors.Is(err, domain.ErrMatchNotFound) {
		t.Errorf("unknown match: %v", err)
	}
	other := create(t, svc, twoHumans(""))
	if _, err := svc.Authenticate(ctx, other.Match.ID, c.Tokens[0].Token); !errors.Is(err, domain.ErrUnauthorized) {
		t.Errorf("a token of another match: %v", err)
	}
	if other.Match.Seeded || other.Match.Commitment == c.Match.Commitment {
		t.Error("an unseeded match must draw its own seed")
	}
}

func TestCreateRejectsBadRequests(t *testing.T) {
	svc := newService(t, memstore.New(), 16)
	// Distinct names, so that each request is refused for the reason its name gives, not for
	// two seats sharing one.
	h := domain.PlayerInfo{Name: "x", Kind: domain.Human}
	h2, h3 := domain.PlayerInfo{Name: "y", Kind: domain.Human}, domain.PlayerInfo{Name: "w", Kind: domain.Human}
	for name, req := range map[string]referee.CreateRequest{
		"one player":           {Players: []domain.PlayerInfo{h}},
		"five players":         {Players: []domain.PlayerInfo{h, h2, h3, {Name: "v", Kind: domain.Human}, {Name: "u", Kind: domain.Human}}},
		"partners of three":    {Players: []domain.PlayerInfo{h, h2, h3}, Partnerships: true},
		"target not of five":   {Players: []domain.PlayerInfo{h, h2}, Target: 12},
		"target too high":      {Players: []domain.PlayerInfo{h, h2}, Target: 1005},
		"bad seed":             {Players: []domain.PlayerInfo{h, h2}, Seed: "abc"},
		"unknown bot":          {Players: []domain.PlayerInfo{h, {Name: "b", Kind: domain.Bot, Bot: "nope"}}},
		"empty name":           {Players: []domain.PlayerInfo{h, {Name: " ", Kind: domain.Human}}},
		"unknown kind":         {Players: []domain.PlayerInfo{h, {Name: "z", Kind: "alien"}}},
		"human with a bot set": {Players: []domain.PlayerInfo{h, {Name: "z", Kind: domain.Human, Bot: "first"}}},
		"65 characters":        {Players: []domain.PlayerInfo{h, {Name: strings.Repeat("é", 65), Kind: domain.Human}}},
		"a line break":         {Players: []domain.PlayerInfo{h, {Name: "A\nseed: 00", Kind: domain.Human}}},
		"a bidi override":      {Players: []domain.PlayerInfo{h, {Name: "abc\u202edcb", Kind: domain.Human}}},
		"a line separator":     {Players: []domain.PlayerInfo{h, {Name: "a\u2028b", Kind: domain.Human}}},
		"invalid UTF-8":        {Players: []domain.PlayerInfo{h, {Name: "a\xffb", Kind: domain.Human}}},
	} {
		if _, err := svc.Create(context.Background(), req); domain.CodeOf(err) != domain.CodeInvalidRequest {
			t.Errorf("%s: %v, want INVALID_REQUEST", name, err)
		}
	}
}

func TestNamesCountCharacters(t *testing.T) {
	svc := newService(t, memstore.New(), 16)
	req := twoHumans("")
	req.Players[1].Name = strings.Repeat("é", 64) // 128 bytes, 64 characters
	if _, err := svc.Create(context.Background(), req); err != nil {
		t.Fatalf("64 characters refused: %v", err)
	}
}

func TestActMovesAndHidesOthersTiles(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, memstore.New(), 16)
	c := create(t, svc, twoHumans(vectorSeed))
	id := c.Match.ID
	seat0, seat1 := seatOf(t, svc, id, c.Tokens[0].Token), seatOf(t, svc, id, c.Tokens[1].Token)
	if _, err := svc.Act(ctx, id, domain.Spectator(), referee.ActRequest{Move: domain.Draw()}); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("spectator move: %v", err)
	}
	if _, err := svc.Act(ctx, id, seat1, referee.ActRequest{Move: domain.Draw()}); !errors.Is(err, domain.ErrNotYourTurn) {
		t.Fatalf("seat 1 out of turn: %v", err)
	}
	res, err := svc.Act(ctx, id, seat0, referee.ActRequest{Move: domain.Play(domain.MustTile("5-5"), domain.Left)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) != 1 || res.Match.Scores[0] != 10 || res.Match.Version != 3 || res.Match.Hand.Turn != 1 {
		t.Fatalf("after the lead: %+v", res.Match)
	}
	// Seat 0 may never see seat 1's hand: it is deck[7:14] of the test vector.
	seat1Hand := []string{"1-2", "3-6", "1-5", "0-1", "5-6", "4-6", "3-3"}
	view, _ := svc.View(ctx, id, seat0)
	events, _, _ := svc.Events(ctx, id, seat0, 0, 100)
	spect, _ := svc.View(ctx, id, domain.Spectator())
	for _, shown := range []any{view, events, res, spect} {
		b, _ := json.Marshal(shown)
		for _, tile := range seat1Hand {
			if strings.Contains(string(b), `"`+tile+`"`) {
				t.Errorf("seat 0 sees seat 1's %s in %s", tile, b)
			}
		}
		if strings.Contains(string(b), vectorSeed) {
			t.Errorf("the seed shows before the end: %s", b)
		}
	}
	if spect.You != nil || len(spect.LegalMoves) != 0 {
		t.Errorf("a spectator has no hand or moves: %+v", spect)
	}
}

func TestIdempotentRetryAndVersionConflict(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	svc := newService(t, store, 16)
	c := create(t, svc, twoHumans(vectorSeed))
	id := c.Match.ID
	seat0 := seatOf(t, svc, id, c.Tokens[0].Token)
	lead := referee.ActRequest{Move: domain.Play(domain.MustTile("5-5"), domain.Left), IdempotencyKey: "k1"}
	first, err := svc.Act(ctx, id, seat0, lead)
	if err != nil {
		t.Fatal(err)
	}
	again, err := svc.Act(ctx, id, seat0, lead)
	if err != nil || !again.Replayed {
		t.Fatalf("retry: %v replayed=%v", err, again.Replayed)
	}
	a, _ := json.Marshal(first.Events)
	b, _ := json.Marshal(again.Events)
	if string(a) != string(b) || again.Match.Version != first.Match.Version {
		t.Errorf("a retry answered differently:\n%s\n%s", a, b)
	}
	if evs, _ := store.Events(ctx, id, 0, 0); len(evs) != 3 {
		t.Errorf("the retry added events: %d in the log", len(evs))
	}
	other := lead
	other.Move = domain.Draw()
	if _, err := svc.Act(ctx, id, seat0, other); !errors.Is(err, domain.ErrIdempotencyReuse) {
		t.Errorf("same key, other move: %v", err)
	}
	seat1 := seatOf(t, svc, id, c.Tokens[1].Token)
	stale := referee.ActRequest{Move: domain.Draw(), ExpectedVersion: 2}
	var vc *domain.VersionConflictError
	if _, err := svc.Act(ctx, id, seat1, stale); !errors.As(err, &vc) || vc.Current != 3 {
		t.Errorf("stale If-Match: %v", err)
	}
}

func TestConcurrentMovesOnOneVersion(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, memstore.New(), 16)
	c := create(t, svc, twoHumans(vectorSeed))
	seat0 := seatOf(t, svc, c.Match.ID, c.Tokens[0].Token)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = svc.Act(ctx, c.Match.ID, seat0, referee.ActRequest{
				Move: domain.Play(domain.MustTile("5-5"), domain.Left), ExpectedVersion: 2})
		})
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, domain.ErrVersionConflict):
			t.Errorf("unexpected %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d moves won version 2, want exactly 1", ok)
	}
}
