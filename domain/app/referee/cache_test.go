package referee

import (
	"testing"

	"github.com/allfives/allfives/domain"
)

func cachedMatch(id string) *entry {
	e := &entry{}
	e.set(&game{match: domain.NewMatch(id, domain.Seed{})})
	return e
}

// TestCacheKeepsPinnedEntries: an entry in use is never evicted, so a move in flight can never
// leave a second, stale copy of its match in the cache.
func TestCacheKeepsPinnedEntries(t *testing.T) {
	c := newMatchCache(1, 1<<40)
	a := c.put(cachedMatch("a")) // pinned: a request is using it
	b := c.put(cachedMatch("b"))
	if c.get("a") != a {
		t.Fatal("a pinned entry was evicted")
	}
	c.unpin(a) // the get above
	c.unpin(b)
	if c.order.Len() != 1 || c.byID["a"] != a {
		t.Fatalf("with b released, the cache should keep only a (still pinned): %v", c.byID)
	}
	c.unpin(a)
	c.put(cachedMatch("c"))
	if c.byID["a"] != nil || c.order.Len() != 1 {
		t.Fatalf("released entries must be evicted beyond the size: %v", c.byID)
	}
	stale := cachedMatch("c")
	c.drop(stale)
	if c.byID["c"] == nil {
		t.Fatal("dropping a stale copy removed the cached one")
	}
}
