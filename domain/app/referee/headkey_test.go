package referee_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/referee/refereetest"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/repository/memstore"
)

// keyHeaded is headed that also answers a key's lookup in its head check (HeadKeyReader), as
// PostgreSQL does, and counts those reads and the lookups made apart from them.
type keyHeaded struct {
	*headed
	headKeys, lookups int
}

func (k *keyHeaded) HeadAndKey(ctx context.Context, id string, keyHash []byte) (int, players.Record, error) {
	k.mu.Lock()
	k.headKeys++
	down := k.down
	k.mu.Unlock()
	if down {
		return 0, players.Record{}, storeerr.ErrStoreUnavailable
	}
	head := -1
	if m, err := k.Store.Match(ctx, id); err == nil {
		head = m.Summary.Version
	} else if !errors.Is(err, domain.ErrMatchNotFound) {
		return 0, players.Record{}, err
	}
	rec, err := k.Store.PlayerByKeyHash(ctx, keyHash)
	if errors.Is(err, players.ErrPlayerNotFound) {
		return head, players.Record{}, nil
	}
	return head, rec, err
}

func (k *keyHeaded) PlayerByKeyHash(ctx context.Context, hash []byte) (players.Record, error) {
	k.mu.Lock()
	k.lookups++
	k.mu.Unlock()
	return k.Store.PlayerByKeyHash(ctx, hash)
}

// reads counts, and resets, head checks alone, head checks with a key, and lookups apart.
func (k *keyHeaded) reads() (heads, headKeys, lookups int) {
	heads, _ = k.counts()
	k.mu.Lock()
	defer k.mu.Unlock()
	headKeys, lookups = k.headKeys, k.lookups
	k.headKeys, k.lookups = 0, 0
	return heads, headKeys, lookups
}

func keyService(store *keyHeaded) (*referee.MatchService, *players.Service) {
	people := players.NewService(players.Config{Store: store})
	return referee.NewMatchService(referee.ServiceConfig{
		Store: store, Clock: refereetest.NewClock(time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)), Players: people,
	}), people
}

// TestKeyFoldedIntoHeadCheck: on a store that answers a key with its head check, a read made
// with a key asks the store once, for both; a token's read still asks the head alone. A key
// rotated is refused at once; a key of a player with no seat here, or of no player, is
// refused; a missing match is reported as one before the key is. A move made through another
// service shows in the next keyed read, caught up from the events after the copy.
func TestKeyFoldedIntoHeadCheck(t *testing.T) {
	ctx := context.Background()
	store := &keyHeaded{headed: &headed{Store: memstore.New()}}
	svc, people := keyService(store)
	other, _ := keyService(store)
	ada, err := people.Create(ctx, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := people.Create(ctx, "Bob")
	if err != nil {
		t.Fatal(err)
	}
	c, err := svc.Create(ctx, referee.CreateRequest{Key: ada.Key, Seed: vectorSeed, Players: []domain.PlayerInfo{
		{Kind: domain.Human, Player: referee.Me}, {Kind: domain.Human, Name: "bob"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	id := c.Match.ID
	read := func(cred string) (domain.MatchView, error) {
		ctx := referee.OneHeadCheck(context.Background())
		v, err := svc.Authenticate(ctx, id, cred)
		if err != nil {
			return domain.MatchView{}, err
		}
		return svc.View(ctx, id, v)
	}
	store.reads()
	if v, err := read(ada.Key); err != nil || v.You == nil || v.You.Seat != 0 {
		t.Fatalf("keyed read: %+v %v", v.You, err)
	}
	if heads, headKeys, lookups := store.reads(); heads != 0 || headKeys != 1 || lookups != 0 {
		t.Fatalf("a keyed read: %d heads, %d heads with a key, %d lookups; want one read for both", heads, headKeys, lookups)
	}
	if _, err := read(c.Tokens[1].Token); err != nil {
		t.Fatal(err)
	}
	if heads, headKeys, lookups := store.reads(); heads != 1 || headKeys != 0 || lookups != 0 {
		t.Fatalf("a token's read: %d heads, %d heads with a key, %d lookups", heads, headKeys, lookups)
	}
	// Without the request's memo too: the call keeps one of its own.
	if _, err := svc.Authenticate(ctx, id, ada.Key); err != nil {
		t.Fatal(err)
	}
	if heads, headKeys, lookups := store.reads(); heads != 0 || headKeys != 1 || lookups != 0 {
		t.Fatalf("a keyed check without a memo: %d heads, %d heads with a key, %d lookups", heads, headKeys, lookups)
	}

	if _, err := read(bob.Key); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("a player with no seat here: %v", err)
	}
	if _, err := read("afk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("a key never issued: %v", err)
	}
	if _, err := svc.Authenticate(referee.OneHeadCheck(ctx), "nosuchmatch", ada.Key); !errors.Is(err, domain.ErrMatchNotFound) {
		t.Fatalf("a missing match with a key: %v, want ErrMatchNotFound", err)
	}

	// A move through the other service: the keyed read shows it, caught up from the copy.
	seat1, err := other.Authenticate(ctx, id, c.Tokens[1].Token)
	if err != nil {
		t.Fatal(err)
	}
	turn := seat1
	if v, _ := other.View(ctx, id, domain.Spectator()); v.Turn != nil && *v.Turn == 0 {
		if turn, err = other.Authenticate(ctx, id, ada.Key); err != nil {
			t.Fatal(err)
		}
	}
	_, mv := legalFor(t, other, id, turn)
	res, err := other.Act(ctx, id, turn, referee.ActRequest{Move: mv})
	if err != nil {
		t.Fatal(err)
	}
	store.reads()
	v, err := read(ada.Key)
	if err != nil || v.Version != res.Match.Version {
		t.Fatalf("keyed read after a move elsewhere: version %d %v, want %d", v.Version, err, res.Match.Version)
	}
	_, afters := store.counts()
	if _, headKeys, lookups := store.reads(); headKeys != 1 || lookups != 0 || len(afters) != 1 || afters[0] != res.Match.Version-1 {
		t.Fatalf("keyed read after a move elsewhere: %d heads with a key, %d lookups, events read after %v; want one read, then the events after %d",
			headKeys, lookups, afters, res.Match.Version-1)
	}

	next, err := people.RotateKey(ctx, ada.Key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := read(ada.Key); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("a rotated key: %v", err)
	}
	if _, err := read(next.Key); err != nil {
		t.Fatalf("the new key: %v", err)
	}

	store.mu.Lock()
	store.down = true
	store.mu.Unlock()
	if _, err := read(next.Key); !errors.Is(err, storeerr.ErrStoreUnavailable) {
		t.Fatalf("a keyed read while the store is down: %v, want ErrStoreUnavailable", err)
	}
}
