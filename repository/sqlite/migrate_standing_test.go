package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"gorm.io/gorm"

	"github.com/allfives/allfives/repository/storetest"
)

// migrationOn opens a store on a new file named name, as a server before a migration left it,
// and returns the hooks the storetest migration contracts drive it with: down to a version
// (then afterDown, if any, on the store), up again, its writer, and a reopen.
func migrationOn(t *testing.T, name string, afterDown func(t *testing.T, s *Store)) storetest.StandingMigration {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), name)
	s, err := Open(ctx, path, Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return storetest.StandingMigration{
		Store: s,
		Down: func(t *testing.T, version int64) {
			p, err := s.migrator()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.DownTo(ctx, version); err != nil {
				t.Fatalf("down to %d: %v", version, err)
			}
			if afterDown != nil {
				afterDown(t, s)
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
	}
}

// TestMigrateStandingAndSkeletons: migration 00012 on a file a server before it left
// (storetest.RunStandingMigration): two players whose names now look alike, ratings rated by
// the rules before standing.
func TestMigrateStandingAndSkeletons(t *testing.T) {
	storetest.RunStandingMigration(t, migrationOn(t, "standing.db", func(t *testing.T, s *Store) {
		var left int
		s.r.Raw("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%player_skeletons%' OR sql LIKE '%established%'").Scan(&left)
		if left != 0 {
			t.Fatalf("after the down, %d objects still name the columns of 00012", left)
		}
	}))
}

// TestMigrateSealedRatings: migration 00016 on a file a server before it left
// (storetest.RunSealedRatingsMigration).
func TestMigrateSealedRatings(t *testing.T) {
	storetest.RunSealedRatingsMigration(t, migrationOn(t, "sealed.db", nil), 15)
}
