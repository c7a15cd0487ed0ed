package storetest

import (
	"time"

	"errors"
	"testing"

	"github.com/allfives/allfives/domain/app/players"
)

// RunPlayerLookup checks store against the players.NameStore contract: a player is found by
// its name key, by nothing else. open must return a new, empty store for each call.
func RunPlayerLookup(t *testing.T, open func(t *testing.T) players.Store) {
	t.Run("ByNameKey", func(t *testing.T) {
		s := open(t)
		ns, ok := s.(players.NameStore)
		if !ok {
			t.Fatal("the store does not implement players.NameStore")
		}
		ada := NewPlayer(t, "Ada", lookupAt)
		mustCreatePlayer(t, s, ada)
		mustCreatePlayer(t, s, NewPlayer(t, "Bob", lookupAt))
		got, err := ns.PlayerByNameKey(ctx, ada.NameKey)
		if err != nil {
			t.Fatal(err)
		}
		samePlayer(t, got, ada)
		for _, key := range []string{"", "Ada", "ad", ada.NameKey + " "} {
			if key == ada.NameKey {
				continue
			}
			if _, err := ns.PlayerByNameKey(ctx, key); !errors.Is(err, players.ErrPlayerNotFound) {
				t.Fatalf("name key %q: %v", key, err)
			}
		}
	})
}

var lookupAt = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
