package referee_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/memstore"
)

// TestIdempotencyKeysPerSeat: keys are per seat (docs/api-matches.md, "Idempotency"). After seat 0
// moved with key "1", seat 1 moves with key "1" too, and each seat's retry replays its own
// answer; the same holds on a service that loads the match from the store, where the keys are
// read from the store rather than from memory.
func TestIdempotencyKeysPerSeat(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	svc := newService(t, store, 0)
	c := create(t, svc, twoHumans(vectorSeed))
	id := c.Match.ID
	seat0, seat1 := seatOf(t, svc, id, c.Tokens[0].Token), seatOf(t, svc, id, c.Tokens[1].Token)

	lead := referee.ActRequest{Move: domain.Play(domain.MustTile("5-5"), domain.Left), IdempotencyKey: "1"}
	first0, err := svc.Act(ctx, id, seat0, lead)
	if err != nil {
		t.Fatal(err)
	}
	reply := referee.ActRequest{Move: firstMove(t, svc, id, seat1), IdempotencyKey: "1"}
	first1, err := svc.Act(ctx, id, seat1, reply)
	if err != nil {
		t.Fatalf("seat 1's key 1 after seat 0's: %v", err)
	}
	if first1.Replayed || first1.Match.Version <= first0.Match.Version {
		t.Fatalf("seat 1's move was not made: replayed %v, version %d after %d", first1.Replayed, first1.Match.Version, first0.Match.Version)
	}
	head := first1.Match.Version

	loaded := newService(t, store, 0) // knows no key in memory: reads them from the store
	for name, s := range map[string]*referee.MatchService{"creator": svc, "loaded": loaded} {
		sameReplay(t, name+", seat 0", s, id, seat0, lead, first0)
		sameReplay(t, name+", seat 1", s, id, seat1, reply, first1)
		// A seat's own key with another move is still a reuse.
		other := lead
		other.Move = domain.Draw()
		if _, err := s.Act(ctx, id, seat0, other); !errors.Is(err, domain.ErrIdempotencyReuse) {
			t.Errorf("%s: seat 0's key 1 with another move: %v, want ErrIdempotencyReuse", name, err)
		}
	}
	if evs, _ := store.Events(ctx, id, 0, 0); len(evs) != head {
		t.Fatalf("the retries changed the log: %d events, want %d", len(evs), head)
	}
}

// TestIdempotencyKeyTellsNothingOfAnotherSeat: seat 1's keyed request gets exactly the answer
// it would get had seat 0 never used that key, whether its move is legal or not: the key is
// fresh to it, so it learns nothing of seat 0's keys.
func TestIdempotencyKeyTellsNothingOfAnotherSeat(t *testing.T) {
	ctx := context.Background()
	type answer struct {
		events   string
		version  int
		replayed bool
		err      string
	}
	play := func(seat0Key string) (illegal, legal answer) {
		store := memstore.New()
		svc := newService(t, store, 0)
		c := create(t, svc, twoHumans(vectorSeed))
		id := c.Match.ID
		seat0, seat1 := seatOf(t, svc, id, c.Tokens[0].Token), seatOf(t, svc, id, c.Tokens[1].Token)
		if _, err := svc.Act(ctx, id, seat0, referee.ActRequest{Move: domain.Play(domain.MustTile("5-5"), domain.Left), IdempotencyKey: seat0Key}); err != nil {
			t.Fatal(err)
		}
		// Through a service that loaded the match, so that the key is looked up in the store.
		svc = newService(t, store, 0)
		get := func(mv domain.Move) answer {
			res, err := svc.Act(ctx, id, seat1, referee.ActRequest{Move: mv, IdempotencyKey: "1"})
			if err != nil {
				return answer{err: string(domain.CodeOf(err))}
			}
			b, _ := json.Marshal(res.Events)
			return answer{events: string(b), version: res.Match.Version, replayed: res.Replayed}
		}
		// Seat 0's own move, which seat 1 cannot make (it is not its tile or its turn's end).
		illegal = get(domain.Play(domain.MustTile("5-5"), domain.Left))
		legal = get(firstMove(t, svc, id, seat1))
		return illegal, legal
	}
	probedIllegal, probedLegal := play("1")
	freshIllegal, freshLegal := play("other")
	if probedIllegal != freshIllegal || probedIllegal.err == "" || probedIllegal.err == string(domain.CodeOf(domain.ErrIdempotencyReuse)) {
		t.Errorf("an illegal move with seat 0's key: %+v; with a key seat 0 never used: %+v", probedIllegal, freshIllegal)
	}
	if probedLegal != freshLegal || probedLegal.err != "" || probedLegal.replayed {
		t.Errorf("a legal move with seat 0's key: %+v; with a key seat 0 never used: %+v", probedLegal, freshLegal)
	}
}

// firstMove is the first legal move of v in match id.
func firstMove(t *testing.T, svc *referee.MatchService, id string, v domain.Viewer) domain.Move {
	t.Helper()
	_, _, moves, err := svc.LegalMoves(context.Background(), id, v)
	if err != nil || len(moves) == 0 {
		t.Fatalf("legal moves: %d, %v", len(moves), err)
	}
	return moves[0].Move()
}

// sameReplay checks that req, sent again by v, replays want without moving.
func sameReplay(t *testing.T, name string, svc *referee.MatchService, id string, v domain.Viewer, req referee.ActRequest, want referee.ActResult) {
	t.Helper()
	got, err := svc.Act(context.Background(), id, v, req)
	if err != nil || !got.Replayed {
		t.Fatalf("%s: retry: %v, replayed %v", name, err, got.Replayed)
	}
	a, _ := json.Marshal(want.Events)
	b, _ := json.Marshal(got.Events)
	if string(a) != string(b) || got.Match.Version != want.Match.Version {
		t.Fatalf("%s: the retry answered differently:\n got %s (version %d)\nwant %s (version %d)", name, b, got.Match.Version, a, want.Match.Version)
	}
}
