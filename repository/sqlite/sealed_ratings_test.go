package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"gorm.io/gorm"

	"github.com/allfives/allfives/repository/storetest"
)

// TestSealedRatings: two stores on one file, as two processes would be: the matches of a
// duplicate round are rated when it ends, at its end (storetest.RunSealedRatings).
func TestSealedRatings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sealed.db")
	storetest.RunSealedRatings(t, storetest.RatingsInstances{
		Open: func(t *testing.T, name string) storetest.RatingsStore {
			s, err := Open(context.Background(), path, Options{Sync: "off"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	})
}

// TestMigrateSealedRatings: migration 00016 on a file a server before it left
// (storetest.RunSealedRatingsMigration).
func TestMigrateSealedRatings(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sealed.db")
	s, err := Open(ctx, path, Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	storetest.RunSealedRatingsMigration(t, storetest.StandingMigration{
		Store: s,
		Down: func(t *testing.T, version int64) {
			p, err := s.migrator()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.DownTo(ctx, version); err != nil {
				t.Fatalf("down to %d: %v", version, err)
			}
		},
		Up: func(t *testing.T) {
			if _, err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
		},
		DB: func() *gorm.DB { return s.w },
		Reopen: func(t *testing.T) storetest.RatingsStore {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if s, err = Open(ctx, path, Options{Sync: "normal"}); err != nil {
				t.Fatalf("open after the migration: %v", err)
			}
			return s
		},
	}, 15)
}
