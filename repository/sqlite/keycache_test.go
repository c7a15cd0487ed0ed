package sqlite

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository/sqlrow"
	"github.com/allfives/allfives/repository/storetest"
)

// TestKeyCacheStaleFill plays the race the cache's generation guards against, one step at a
// time: a lookup misses the cache and reads the row, a rotation commits and returns, and only
// then does the lookup offer what it read. The old hash must not come back.
func TestKeyCacheStaleFill(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "keys.db"), Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := storetest.NewPlayer(t, "Gus", storetest.Base)
	if err := s.CreatePlayer(ctx, rec); err != nil {
		t.Fatal(err)
	}
	s.keys.forget(rec.ID) // as if the cache had evicted it: the next lookup reads the table
	_, gen, ok := s.keys.get(rec.KeyHash)
	if ok {
		t.Fatal("a forgotten player is still cached")
	}
	read, err := sqlrow.PlayerWhere(s.r.WithContext(ctx), "key_hash", rec.KeyHash)
	if err != nil {
		t.Fatal(err)
	}
	next := bytes.Repeat([]byte{7}, 32)
	if ok, err := s.RotatePlayerKey(ctx, rec.ID, rec.KeyHash, next, storetest.Base.Add(time.Hour)); !ok || err != nil {
		t.Fatalf("rotate: %v %v", ok, err)
	}
	s.keys.fill(read, gen) // the lookup's late offer of the row it read before the rotation
	if _, err := s.PlayerByKeyHash(ctx, rec.KeyHash); !errors.Is(err, players.ErrPlayerNotFound) {
		t.Fatalf("the old key hash after a stale fill: %v", err)
	}
	got, err := s.PlayerByKeyHash(ctx, next)
	if err != nil || got.ID != rec.ID || !got.KeyRotatedAt.Equal(storetest.Base.Add(time.Hour)) {
		t.Fatalf("the new key hash: %+v %v", got, err)
	}
	// Now cached: a second lookup is the cache's, the same record, the caller's own copy.
	got.KeyHash[0] ^= 0xff
	again, err := s.PlayerByKeyHash(ctx, next)
	if err != nil || !bytes.Equal(again.KeyHash, next) {
		t.Fatalf("the cached record changed with the caller's copy: %x %v", again.KeyHash, err)
	}
}

// TestKeyCacheBounded: past maxKeys players the cache forgets one for each it learns (a
// forgotten player is found by the table, as TestKeyCacheStaleFill's first lookup is).
func TestKeyCacheBounded(t *testing.T) {
	var c keyCache
	for i := range maxKeys + 10 {
		sum := sha256.Sum256([]byte(strconv.Itoa(i)))
		c.put(players.Record{Player: players.Player{ID: strconv.Itoa(i)}, KeyHash: sum[:]})
	}
	if len(c.byHash) != maxKeys || len(c.hashOf) != maxKeys {
		t.Fatalf("%d hashes and %d ids cached, want %d", len(c.byHash), len(c.hashOf), maxKeys)
	}
}
