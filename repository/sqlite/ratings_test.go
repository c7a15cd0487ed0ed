package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/allfives/allfives/repository/storetest"
)

// TestRatingsProjection: two stores on one file, as two processes would be, rate about 200
// matches ended in a shuffled order; one is closed mid-way; the table equals the rebuild.
func TestRatingsProjection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ratings.db")
	stores := map[string]*Store{}
	storetest.RunRatingsProjection(t, storetest.RatingsInstances{
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
	})
}
