package postgres

import (
	"context"
	"testing"

	"gorm.io/gorm"

	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

// TestSealedRatings: two instances on one database: the matches of a duplicate round are
// rated when it ends, at its end (storetest.RunSealedRatings).
func TestSealedRatings(t *testing.T) {
	url := pgtest.URL(t)
	storetest.RunSealedRatings(t, storetest.RatingsInstances{
		Open: func(t *testing.T, name string) storetest.RatingsStore {
			s, err := Open(context.Background(), url, Options{MaxConns: 4})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	})
}

// TestMigrateSealedRatings: migration 00016 on a database a server before it left
// (storetest.RunSealedRatingsMigration).
func TestMigrateSealedRatings(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	s, err := Open(ctx, url, Options{})
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
		DB: func() *gorm.DB { return s.db },
		Reopen: func(t *testing.T) storetest.RatingsStore {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if s, err = Open(ctx, url, Options{}); err != nil {
				t.Fatalf("open after the migration: %v", err)
			}
			return s
		},
	}, 15)
}
