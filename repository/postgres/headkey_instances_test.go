package postgres_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/postgres"
)

// keyInstance is one server instance with players over a PostgreSQL database: a store with a
// pool and a head batch of its own, a referee with a cache of its own, which hears nothing of
// the other instances' appends, and the players service.
type keyInstance struct {
	svc    *referee.MatchService
	people *players.Service
}

func keyInstances(t *testing.T) (a, b keyInstance) {
	t.Helper()
	first, url := openStore(t, postgres.Options{MaxConns: 4})
	second := openAt(t, url, postgres.Options{MaxConns: 4})
	return keyInstanceOn(first), keyInstanceOn(second)
}

// keyInstanceOn is an instance over the store s.
func keyInstanceOn(s *postgres.Store) keyInstance {
	people := players.NewService(players.Config{Store: s})
	return keyInstance{svc: referee.NewMatchService(referee.ServiceConfig{Store: s, Players: people}), people: people}
}

// read is a state read as the API makes it: the credential's check, then the view, in one
// request's head-check memo.
func (k keyInstance) read(id, credential string) (domain.MatchView, error) {
	ctx := referee.OneHeadCheck(context.Background())
	v, err := k.svc.Authenticate(ctx, id, credential)
	if err != nil {
		return domain.MatchView{}, err
	}
	return k.svc.View(ctx, id, v)
}

// seatIn is the seat a view is of, -1 for a spectator's.
func seatIn(v domain.MatchView) int {
	if v.You == nil {
		return -1
	}
	return v.You.Seat
}

// keyedMatch creates, on b, the player Ada, and, on a, a match of Ada's seat 0 against the
// anonymous seat 1; it returns the match's id, Ada's key and seat 1's token.
func keyedMatch(t *testing.T, a, b keyInstance) (id, key, token string) {
	t.Helper()
	ada, err := b.people.Create(ctx, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	c, err := a.svc.Create(ctx, referee.CreateRequest{Key: ada.Key, Players: []domain.PlayerInfo{
		{Kind: domain.Human, Player: referee.Me}, {Kind: domain.Human, Name: "bob"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range c.Tokens {
		if st.Seat == 1 {
			token = st.Token
		}
	}
	return c.Match.ID, ada.Key, token
}

// TestRotatedKeyAcrossInstances: a key rotated on instance B is refused by instance A's very
// next read, though A's last read accepted it a moment before and A's copy of the match is
// current; the new key is accepted. Then the same under concurrent reads on A, token reads and
// keyed reads with current, rotated and never-issued keys, whose head checks share queries:
// no read that began after a rotation returned accepts the key it rotated away.
func TestRotatedKeyAcrossInstances(t *testing.T) {
	a, b := keyInstances(t)
	id, key, token := keyedMatch(t, a, b)
	for range 5 {
		if v, err := a.read(id, key); err != nil || seatIn(v) != 0 {
			t.Fatalf("A reads with the key: %v %v", seatIn(v), err)
		}
		next, err := b.people.RotateKey(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.read(id, key); !errors.Is(err, domain.ErrUnauthorized) {
			t.Fatalf("A's next read with the key B rotated away: %v, want ErrUnauthorized", err)
		}
		key = next.Key
	}

	// Concurrent readers on A while B rotates: keys[g] is the key current once generation g's
	// rotation returned.
	var mu sync.Mutex
	keys := []string{key}
	var gen atomic.Int64
	unknown := "afk_" + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	if !players.IsKey(unknown) {
		t.Fatal("the never-issued key is not shaped as a key")
	}
	stop := make(chan struct{})
	var accepted, refused atomic.Int64
	var wg sync.WaitGroup
	for r := range 8 {
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				g := int(gen.Load()) // before the read begins
				mu.Lock()
				current := keys[g]
				old := ""
				if g > 0 {
					old = keys[g-1]
				}
				mu.Unlock()
				switch (r + n) % 4 {
				case 0:
					if v, err := a.read(id, token); err != nil || seatIn(v) != 1 {
						t.Errorf("token read: %v %v", seatIn(v), err)
						return
					}
				case 1:
					// Current when the read began; a rotation may end it while the read runs.
					v, err := a.read(id, current)
					switch {
					case err == nil && seatIn(v) == 0:
						accepted.Add(1)
					case errors.Is(err, domain.ErrUnauthorized):
						refused.Add(1)
					default:
						t.Errorf("keyed read: %v %v", seatIn(v), err)
						return
					}
				case 2:
					if old == "" {
						continue
					}
					if _, err := a.read(id, old); !errors.Is(err, domain.ErrUnauthorized) {
						t.Errorf("a read that began after the rotation of its key returned: %v, want ErrUnauthorized", err)
						return
					}
				default:
					if _, err := a.read(id, unknown); !errors.Is(err, domain.ErrUnauthorized) {
						t.Errorf("a never-issued key: %v, want ErrUnauthorized", err)
						return
					}
				}
			}
		})
	}
	for range 40 {
		mu.Lock()
		current := keys[len(keys)-1]
		mu.Unlock()
		next, err := b.people.RotateKey(ctx, current)
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		keys = append(keys, next.Key)
		mu.Unlock()
		gen.Add(1)
		// A's very next read, among the others.
		if _, err := a.read(id, current); !errors.Is(err, domain.ErrUnauthorized) {
			t.Fatalf("A's next read with the key B rotated away: %v, want ErrUnauthorized", err)
		}
	}
	close(stop)
	wg.Wait()
	if accepted.Load() == 0 {
		t.Error("no keyed read was accepted while the key was current")
	}
	t.Logf("keyed reads with the current key: %d accepted, %d refused by a rotation meanwhile", accepted.Load(), refused.Load())
}

// TestKeyedReadAfterMoveAcrossInstances: A holds a copy of the match; each move made on B,
// with the seat's token or with Ada's key, shows in A's very next keyed read, as in its next
// token read.
func TestKeyedReadAfterMoveAcrossInstances(t *testing.T) {
	a, b := keyInstances(t)
	id, key, token := keyedMatch(t, a, b)
	creds := map[int]string{0: key, 1: token}
	for step := range 10 {
		v, err := a.read(id, key) // A's copy, cached and current
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != domain.StatusInProgress || v.Turn == nil {
			break
		}
		cred := creds[*v.Turn]
		viewer, err := b.svc.Authenticate(ctx, id, cred)
		if err != nil {
			t.Fatal(err)
		}
		_, _, moves, err := b.svc.LegalMoves(ctx, id, viewer)
		if err != nil || len(moves) == 0 {
			t.Fatalf("legal moves on B: %v %v", moves, err)
		}
		res, err := b.svc.Act(ctx, id, viewer, referee.ActRequest{Move: moves[0].Move()})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []string{key, token} {
			if c == token && step%2 == 0 {
				continue // the keyed read first, on a copy still behind
			}
			got, err := a.read(id, c)
			if err != nil || got.Version < res.Match.Version {
				t.Fatalf("A's read after B's move to version %d: version %d, %v", res.Match.Version, got.Version, err)
			}
		}
	}
}
