package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"gorm.io/gorm"

	"github.com/allfives/allfives/repository/storetest"
)

// TestMigrateStandingAndSkeletons: migration 00012 on a file a server before it left
// (storetest.RunStandingMigration): two players whose names now look alike, ratings rated by
// the rules before standing.
func TestMigrateStandingAndSkeletons(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "standing.db")
	s, err := Open(ctx, path, Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	storetest.RunStandingMigration(t, storetest.StandingMigration{
		Store: s,
		Down: func(t *testing.T, version int64) {
			p, err := s.migrator()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.DownTo(ctx, version); err != nil {
				t.Fatalf("down to %d: %v", version, err)
			}
			var left int
			s.r.Raw("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%player_skeletons%' OR sql LIKE '%established%'").Scan(&left)
			if left != 0 {
				t.Fatalf("after the down, %d objects still name the columns of 00012", left)
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
	})
}
