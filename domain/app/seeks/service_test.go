package seeks

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/matchmaking"
	"github.com/allfives/allfives/domain/openskill"
)

// keysOf authenticates the keys of a map, key to player id.
type keysOf map[string]string

func (k keysOf) Authenticate(_ context.Context, key string) (players.Player, error) {
	if id, ok := k[key]; ok {
		return players.Player{ID: id}, nil
	}
	return players.Player{}, domain.ErrUnauthorized
}

// standingsOf is one rated standing of player "ada", in 3p.
type standingsOf struct{}

func (standingsOf) PlayerStandings(_ context.Context, player string) ([]ratings.Standing, error) {
	if player != "ada" {
		return nil, nil
	}
	return []ratings.Standing{{Player: player, Format: ratings.Format3p, Rating: openskill.Rating{Mu: 30, Sigma: 2}}}, nil
}

// seekMap keeps the seeks the service puts and reads; any other method of Store is not
// called by the paths under test (a call panics on the nil interface).
type seekMap struct {
	Store
	put map[string]Record
}

func (m *seekMap) PutSeek(_ context.Context, r Record) error {
	m.put[r.ID] = r
	return nil
}

func (m *seekMap) Seek(_ context.Context, id string) (Record, bool, error) {
	r, ok := m.put[id]
	return r, ok, nil
}

// TestCreateAndGet: a seek is made with the player's rating in its format (the prior in a
// format it never played), the server's clock and the TTL, and wakes the matcher; bad
// requests store nothing; another player's seek reads as none; a searching seek past its
// expiry reads expired before any sweep.
func TestCreateAndGet(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	store := &seekMap{put: map[string]Record{}}
	s := New(Config{Store: store, Keys: keysOf{"ka": "ada", "kb": "bob"}, Standings: standingsOf{}, TTL: time.Minute, Now: func() time.Time { return now }})
	ctx := context.Background()

	for _, bad := range []Request{{Format: "5p"}, {Format: "2p", TurnSeconds: domain.MinTurnSeconds - 1}, {Format: "2p", Target: -5}} {
		if _, err := s.Create(ctx, "ka", bad); !errors.Is(err, domain.ErrInvalid) {
			t.Fatalf("Create(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
	if _, err := s.Create(ctx, "nobody", Request{Format: "2p"}); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("an unknown key: %v", err)
	}
	if len(store.put) != 0 {
		t.Fatalf("refused seeks were stored: %+v", store.put)
	}

	rated, err := s.Create(ctx, "ka", Request{Format: "3p", Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := (openskill.Rating{Mu: 30, Sigma: 2}).Ordinal(); rated.Rating != want {
		t.Fatalf("rating %v, want ada's 3p ordinal %v", rated.Rating, want)
	}
	if rated.Status != StatusSearching || rated.TurnSeconds != DefaultTurnSeconds || rated.Seat != -1 ||
		!rated.CreatedAt.Equal(now) || !rated.ExpiresAt.Equal(now.Add(time.Minute)) || rated.Player != "ada" || rated.Format != matchmaking.Format3p {
		t.Fatalf("made %+v", rated)
	}
	select {
	case <-s.wake:
	default:
		t.Fatal("a new seek did not wake the matcher")
	}
	fresh, err := s.Create(ctx, "ka", Request{Format: "2p", TurnSeconds: 30})
	if err != nil {
		t.Fatal(err)
	}
	if want := openskill.Default().New().Ordinal(); fresh.Rating != want || fresh.TurnSeconds != 30 {
		t.Fatalf("in a format never played: %+v, want the prior's %v", fresh, want)
	}

	if _, err := s.Get(ctx, "kb", rated.ID); !errors.Is(err, ErrSeekNotFound) {
		t.Fatalf("bob read ada's seek: %v", err)
	}
	if got, err := s.Get(ctx, "ka", rated.ID); err != nil || got.Status != StatusSearching {
		t.Fatalf("ada's own seek: %+v, %v", got, err)
	}
	now = now.Add(time.Minute)
	got, err := s.Get(ctx, "ka", rated.ID)
	if err != nil || got.Status != StatusExpired || !got.EndedAt.Equal(rated.ExpiresAt) {
		t.Fatalf("past its expiry: %+v, %v", got, err)
	}
	if store.put[rated.ID].Status != StatusSearching {
		t.Fatal("a read changed the stored seek")
	}
}

// TestEffectiveTarget: a seek naming no target names its format's default, so it meets the
// seeks naming that target; one stored naming none reads and pools as that default too.
func TestEffectiveTarget(t *testing.T) {
	store := &seekMap{put: map[string]Record{}}
	s := New(Config{Store: store, Keys: keysOf{"ka": "ada"}, TTL: time.Minute})
	for f, want := range map[matchmaking.Format]int{matchmaking.Format2p: 250, matchmaking.Format3p: 200, matchmaking.Format4p: 200, matchmaking.Format2v2: 250} {
		r, err := s.Create(context.Background(), "ka", Request{Format: string(f)})
		if err != nil || r.Target != want || store.put[r.ID].Target != want {
			t.Fatalf("%s: %+v %v, want target %d", f, r, err, want)
		}
		old := Record{Format: f, TurnSeconds: 60}
		named := old
		named.Target = want
		if old.EffectiveTarget() != want || poolOf(old) != poolOf(named) {
			t.Fatalf("%s: a seek stored naming no target reads %d, pools %q, want %d, %q", f, old.EffectiveTarget(), poolOf(old), want, poolOf(named))
		}
	}
	if r, err := s.Create(context.Background(), "ka", Request{Format: "3p", Target: 100}); err != nil || r.Target != 100 {
		t.Fatalf("a target named: %+v %v", r, err)
	}
}
