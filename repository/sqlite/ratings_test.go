package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/allfives/allfives/repository/storetest"
)

// instances are stores on one new file named name, as processes would be: Open opens another
// by name, Kill closes it.
func instances(t *testing.T, name string) storetest.RatingsInstances {
	path := filepath.Join(t.TempDir(), name)
	stores := map[string]*Store{}
	return storetest.RatingsInstances{
		Open: func(t *testing.T, name string) storetest.RatingsStore {
			s, err := Open(context.Background(), path, Options{Sync: "off"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			stores[name] = s
			return s
		},
		Kill: func(t *testing.T, name string) { stores[name].Close() },
	}
}

// TestRatingsProjection: two stores on one file, as two processes would be, rate about 200
// matches ended in a shuffled order; one is closed mid-way; the table equals the rebuild.
func TestRatingsProjection(t *testing.T) {
	storetest.RunRatingsProjection(t, instances(t, "ratings.db"))
}

// TestSealedRatings: two stores on one file, as two processes would be: the matches of a
// duplicate round are rated when it ends, at its end (storetest.RunSealedRatings).
func TestSealedRatings(t *testing.T) {
	storetest.RunSealedRatings(t, instances(t, "sealed.db"))
}
