package storetest

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/names"
)

// RunPlayers checks store against the players.Store contract. open must return a new, empty
// store for each call; it is called once per subtest.
func RunPlayers(t *testing.T, open func(t *testing.T) players.Store) {
	tests := []struct {
		name string
		fn   func(*testing.T, players.Store)
	}{
		{"CreateAndRead", testPlayerCreateAndRead},
		{"NameTaken", testPlayerNameTaken},
		{"LookAlikeTaken", testPlayerLookAlikeTaken},
		{"NotFound", testPlayerNotFound},
		{"Rotate", testPlayerRotate},
		{"CreateRace", testPlayerCreateRace},
		{"RotateRace", testPlayerRotateRace},
		{"RotatedAtOnce", testPlayerRotatedAtOnce},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

// NewPlayer is a player record named name, with a fresh id and key hash, created at.
func NewPlayer(t testing.TB, name string, at time.Time) players.Record {
	t.Helper()
	key, err := names.Key(name)
	if err != nil {
		t.Fatalf("name %q: %v", name, err)
	}
	kept, _ := names.Enforce(name)
	skeleton, _ := names.Skeleton(name)
	return players.Record{
		Player:  players.Player{ID: hex.EncodeToString(randomBytes(16)), Name: kept, CreatedAt: at},
		NameKey: key, NameSkeleton: skeleton, KeyHash: randomHash(), KeyRotatedAt: at,
	}
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return b
}

func randomHash() []byte {
	sum := sha256.Sum256(randomBytes(32))
	return sum[:]
}

func mustCreatePlayer(t *testing.T, s players.Store, rec players.Record) {
	t.Helper()
	if err := s.CreatePlayer(ctx, rec); err != nil {
		t.Fatalf("create player %s: %v", rec.Name, err)
	}
}

// samePlayer compares a read record with what was stored: every field, the times to the
// nanosecond and in UTC.
func samePlayer(t *testing.T, got, want players.Record) {
	t.Helper()
	if got.ID != want.ID || got.Name != want.Name || got.NameKey != want.NameKey || !bytes.Equal(got.KeyHash, want.KeyHash) {
		t.Fatalf("player %+v, want %+v", got, want)
	}
	for _, at := range []struct{ got, want time.Time }{{got.CreatedAt, want.CreatedAt}, {got.KeyRotatedAt, want.KeyRotatedAt}} {
		if !at.got.Equal(at.want) || at.got.Location() != time.UTC {
			t.Fatalf("time %v, want %v in UTC", at.got, at.want)
		}
	}
}

func testPlayerCreateAndRead(t *testing.T, s players.Store) {
	rec := NewPlayer(t, "Ada Lovelace", Base)
	mustCreatePlayer(t, s, rec)
	got, err := s.Player(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	samePlayer(t, got, rec)
	got, err = s.PlayerByKeyHash(ctx, rec.KeyHash)
	if err != nil {
		t.Fatal(err)
	}
	samePlayer(t, got, rec)
	// What a read returns is the caller's: changing it changes nothing stored.
	got.KeyHash[0] ^= 0xff
	if again, err := s.PlayerByKeyHash(ctx, rec.KeyHash); err != nil {
		t.Fatal(err)
	} else {
		samePlayer(t, again, rec)
	}
}

// testPlayerNameTaken: names are unique under their comparison key, whatever the spelling,
// and a refused create stores nothing.
func testPlayerNameTaken(t *testing.T, s players.Store) {
	ada := NewPlayer(t, "Ada", Base)
	mustCreatePlayer(t, s, ada)
	for _, name := range []string{"Ada", "ada", "ＡＤＡ", "ADA"} {
		rec := NewPlayer(t, name, Base.Add(time.Second))
		if err := s.CreatePlayer(ctx, rec); !errors.Is(err, players.ErrNameTaken) {
			t.Fatalf("create %q beside Ada: %v, want NAME_TAKEN", name, err)
		}
		if _, err := s.Player(ctx, rec.ID); !errors.Is(err, players.ErrPlayerNotFound) {
			t.Fatalf("the refused %q was stored: %v", name, err)
		}
		if _, err := s.PlayerByKeyHash(ctx, rec.KeyHash); !errors.Is(err, players.ErrPlayerNotFound) {
			t.Fatalf("the refused %q's key was stored: %v", name, err)
		}
	}
	if got, err := s.Player(ctx, ada.ID); err != nil {
		t.Fatal(err)
	} else {
		samePlayer(t, got, ada)
	}
	mustCreatePlayer(t, s, NewPlayer(t, "Adà", Base))
	mustCreatePlayer(t, s, NewPlayer(t, "Ada L", Base))
}

// testPlayerLookAlikeTaken: names are unique under their confusable skeleton too: a name
// that looks like a stored one (a Cyrillic or Greek letter for a Latin one, in any case) is
// NAME_TAKEN and stores nothing, though its comparison key is new.
func testPlayerLookAlikeTaken(t *testing.T, s players.Store) {
	bob := NewPlayer(t, "Bob", Base)
	mustCreatePlayer(t, s, bob)
	for _, name := range []string{"Вob", "Βob", "ВОВ", "Bоb"} {
		rec := NewPlayer(t, name, Base.Add(time.Second))
		if rec.NameKey == bob.NameKey {
			t.Fatalf("%q has Bob's comparison key: no test of the skeleton", name)
		}
		if err := s.CreatePlayer(ctx, rec); !errors.Is(err, players.ErrNameTaken) {
			t.Fatalf("create %q beside Bob: %v, want NAME_TAKEN", name, err)
		}
		if _, err := s.Player(ctx, rec.ID); !errors.Is(err, players.ErrPlayerNotFound) {
			t.Fatalf("the refused %q was stored: %v", name, err)
		}
	}
	mustCreatePlayer(t, s, NewPlayer(t, "Bobby", Base))
}

func testPlayerNotFound(t *testing.T, s players.Store) {
	mustCreatePlayer(t, s, NewPlayer(t, "Bob", Base))
	if _, err := s.Player(ctx, "nope"); !errors.Is(err, players.ErrPlayerNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
	if _, err := s.PlayerByKeyHash(ctx, randomHash()); !errors.Is(err, players.ErrPlayerNotFound) {
		t.Fatalf("unknown key hash: %v", err)
	}
	if ok, err := s.RotatePlayerKey(ctx, "nope", randomHash(), randomHash(), Base); ok || err != nil {
		t.Fatalf("rotating an unknown player: %v, %v", ok, err)
	}
}

// testPlayerRotate: a rotation replaces the hash at once (the old one finds no one), keeps
// everything else, and a second rotation from the old hash does nothing.
func testPlayerRotate(t *testing.T, s players.Store) {
	rec := NewPlayer(t, "Cy", Base)
	mustCreatePlayer(t, s, rec)
	next, at := randomHash(), Base.Add(time.Hour+time.Nanosecond)
	if ok, err := s.RotatePlayerKey(ctx, rec.ID, rec.KeyHash, next, at); !ok || err != nil {
		t.Fatalf("rotate: %v, %v", ok, err)
	}
	if _, err := s.PlayerByKeyHash(ctx, rec.KeyHash); !errors.Is(err, players.ErrPlayerNotFound) {
		t.Fatalf("the old key hash still finds the player: %v", err)
	}
	want := rec
	want.KeyHash, want.KeyRotatedAt = next, at
	got, err := s.PlayerByKeyHash(ctx, next)
	if err != nil {
		t.Fatal(err)
	}
	samePlayer(t, got, want)
	if got, err = s.Player(ctx, rec.ID); err != nil {
		t.Fatal(err)
	}
	samePlayer(t, got, want)
	if ok, err := s.RotatePlayerKey(ctx, rec.ID, rec.KeyHash, randomHash(), at.Add(time.Hour)); ok || err != nil {
		t.Fatalf("rotating from the old hash again: %v, %v", ok, err)
	}
	if got, err = s.Player(ctx, rec.ID); err != nil {
		t.Fatal(err)
	}
	samePlayer(t, got, want)
}

// testPlayerCreateRace: of creates racing for one name, exactly one succeeds; the others are
// NAME_TAKEN.
func testPlayerCreateRace(t *testing.T, s players.Store) {
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		rec := NewPlayer(t, []string{"Dee", "dee", "DEE", "ＤＥＥ"}[i%4], Base)
		wg.Go(func() { errs[i] = s.CreatePlayer(ctx, rec) })
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, players.ErrNameTaken):
			t.Fatalf("create %d: %v", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d creates of one name succeeded, want 1", won)
	}
}

// testPlayerRotateRace: of rotations racing from one hash, exactly one wins, and its hash is
// the one stored.
func testPlayerRotateRace(t *testing.T, s players.Store) {
	rec := NewPlayer(t, "Eve", Base)
	mustCreatePlayer(t, s, rec)
	const n = 8
	next := make([][]byte, n)
	won := make([]bool, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		next[i] = randomHash()
		wg.Go(func() { won[i], errs[i] = s.RotatePlayerKey(ctx, rec.ID, rec.KeyHash, next[i], Base.Add(time.Minute)) })
	}
	wg.Wait()
	winner := -1
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("rotate %d: %v", i, errs[i])
		}
		if won[i] {
			if winner >= 0 {
				t.Fatalf("rotations %d and %d both won", winner, i)
			}
			winner = i
		}
	}
	if winner < 0 {
		t.Fatal("no rotation won")
	}
	got, err := s.Player(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.KeyHash, next[winner]) {
		t.Fatal("the stored hash is not the winner's")
	}
}

// testPlayerRotatedAtOnce: while lookups of a player's key hash run without pause, a lookup
// that begins after a rotation returned never finds the player by the old hash, and finds it
// by the new one: a store that remembers keys (the SQLite store's cache) must forget the old
// one before the rotation returns, and never let a lookup that read the old row before the
// rotation put it back.
func testPlayerRotatedAtOnce(t *testing.T, s players.Store) {
	rec := NewPlayer(t, "Fay", Base)
	mustCreatePlayer(t, s, rec)
	for round := range 20 {
		old, next := rec.KeyHash, randomHash()
		var rotated, stop atomic.Bool
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for range 4 {
			wg.Go(func() {
				for !stop.Load() {
					after := rotated.Load()
					_, err := s.PlayerByKeyHash(ctx, old)
					switch {
					case after && err == nil:
						errs <- errors.New("a lookup begun after the rotation found the old key hash")
						return
					case err != nil && !errors.Is(err, players.ErrPlayerNotFound):
						errs <- err
						return
					}
				}
			})
		}
		ok, err := s.RotatePlayerKey(ctx, rec.ID, old, next, Base.Add(time.Duration(round+1)*time.Minute))
		rotated.Store(true)
		if !ok || err != nil {
			t.Fatalf("round %d: rotate: %v %v", round, ok, err)
		}
		if got, err := s.PlayerByKeyHash(ctx, next); err != nil || got.ID != rec.ID {
			t.Fatalf("round %d: the new key hash: %+v %v", round, got, err)
		}
		for range 50 {
			if _, err := s.PlayerByKeyHash(ctx, old); !errors.Is(err, players.ErrPlayerNotFound) {
				t.Fatalf("round %d: the old key hash after the rotation: %v", round, err)
			}
		}
		stop.Store(true)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v", round, err)
		}
		rec.KeyHash = next
	}
}
