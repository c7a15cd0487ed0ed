package players_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository/memstore"
)

var ctx = context.Background()

// TestCreateAuthenticateRotate: a new player's key authenticates it; after a rotation the new
// key does and the old one is refused, as a key never issued is; the public profile has the
// name as kept.
func TestCreateAuthenticateRotate(t *testing.T) {
	store := memstore.New()
	svc := players.NewService(players.Config{Store: store})
	c, err := svc.Create(ctx, "  Ada   Lovelace ")
	if err != nil {
		t.Fatal(err)
	}
	if c.Player.Name != "Ada Lovelace" || len(c.Player.ID) != 32 || !players.IsKey(c.Key) {
		t.Fatalf("created %+v with key of %d characters", c.Player, len(c.Key))
	}
	// The store keeps the key's hash, never the key.
	rec, err := store.Player(ctx, c.Player.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256([]byte(c.Key)); string(rec.KeyHash) != string(sum[:]) || strings.Contains(string(rec.KeyHash), c.Key) {
		t.Fatal("the stored hash is not the key's SHA-256")
	}
	if p, err := svc.Authenticate(ctx, c.Key); err != nil || p != c.Player {
		t.Fatalf("authenticate: %+v %v", p, err)
	}
	rotated, err := svc.RotateKey(ctx, c.Key)
	if err != nil || rotated.Key == c.Key || !players.IsKey(rotated.Key) || rotated.Player != c.Player {
		t.Fatalf("rotate: %+v %v", rotated, err)
	}
	if _, err := svc.Authenticate(ctx, c.Key); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("the old key after the rotation: %v", err)
	}
	if _, err := svc.RotateKey(ctx, c.Key); !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("rotating with the old key: %v", err)
	}
	if p, err := svc.Authenticate(ctx, rotated.Key); err != nil || p != c.Player {
		t.Fatalf("the new key: %+v %v", p, err)
	}
	prof, err := svc.Profile(ctx, c.Player.ID)
	if err != nil || prof.Player != c.Player {
		t.Fatalf("profile: %+v %v", prof, err)
	}
	if _, err := svc.Profile(ctx, "nope"); !errors.Is(err, players.ErrPlayerNotFound) {
		t.Fatalf("profile of no one: %v", err)
	}
}

// TestKeyRefusals: every wrong key gets the same refusal, which never holds the key.
func TestKeyRefusals(t *testing.T) {
	svc := players.NewService(players.Config{Store: memstore.New()})
	c, err := svc.Create(ctx, "Bob")
	if err != nil {
		t.Fatal(err)
	}
	other := players.KeyPrefix + strings.Repeat("A", len(c.Key)-len(players.KeyPrefix))
	var first string
	for _, key := range []string{other, c.Key[:len(c.Key)-1], c.Key + "A", "afk_" + strings.Repeat("!", 43), strings.Repeat("x", 43)} {
		_, err := svc.Authenticate(ctx, key)
		if !errors.Is(err, domain.ErrUnauthorized) || strings.Contains(err.Error(), key) {
			t.Fatalf("key %q: %v", key, err)
		}
		if first == "" {
			first = err.Error()
		} else if err.Error() != first {
			t.Fatalf("key %q is refused as %q, another as %q: the refusals tell keys apart", key, err, first)
		}
	}
	if _, err := svc.Authenticate(ctx, ""); !errors.Is(err, players.ErrNoKey) || !errors.Is(err, domain.ErrUnauthorized) {
		t.Fatalf("no key: %v", err)
	}
}

// TestNamesUnique: names are unique under the profile's comparison, and a refused name is a
// clear 400, not a clash.
func TestNamesUnique(t *testing.T) {
	svc := players.NewService(players.Config{Store: memstore.New()})
	if _, err := svc.Create(ctx, "Ada"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ada", "ＡＤＡ", " ADA "} {
		if _, err := svc.Create(ctx, name); !errors.Is(err, players.ErrNameTaken) {
			t.Fatalf("%q beside Ada: %v", name, err)
		}
	}
	for _, name := range []string{"", "A\u200bda", "Ada\n"} {
		if _, err := svc.Create(ctx, name); !errors.Is(err, domain.ErrInvalid) || !strings.HasPrefix(err.Error(), "name ") {
			t.Fatalf("%q: %v", name, err)
		}
	}
}

// TestIsKeyTellsSeatTokens: a seat token (43 characters of base64url) is never a key's shape.
func TestIsKeyTellsSeatTokens(t *testing.T) {
	for _, s := range []string{strings.Repeat("a", 43), "afk_" + strings.Repeat("a", 39), ""} {
		if players.IsKey(s) {
			t.Fatalf("IsKey(%q)", s)
		}
	}
}
