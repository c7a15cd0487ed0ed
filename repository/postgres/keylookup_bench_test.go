package postgres

import (
	"context"
	"testing"

	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

// BenchmarkKeyLookup measures what a player key adds to a state read on PostgreSQL, where
// every instance must ask the database (a rotation on one instance refuses the old key at once
// on all): the head check every read makes (Head), the key's lookup (PlayerByKeyHash), the
// two one after the other as a keyed read makes them today, and both answered by one
// statement, the fold a keyed read could make if the head check asked for the key's player
// too (one round trip, as a token's read). Run:
//
//	go test ./repository/postgres -run '^$' -bench KeyLookup -benchmem
func BenchmarkKeyLookup(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, pgtest.URL(b), Options{MaxConns: 4})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	f := storetest.NewFixture(b, "head", storetest.Base, 0)
	if err := f.Create(ctx, s); err != nil {
		b.Fatal(err)
	}
	rec := storetest.NewPlayer(b, "Ada", storetest.Base)
	if err := s.CreatePlayer(ctx, rec); err != nil {
		b.Fatal(err)
	}
	const folded = "SELECT m.version, p.id, p.name, p.name_key, p.key_hash, p.created_at, p.key_rotated_at " +
		"FROM matches m LEFT JOIN players p ON p.key_hash = $2 WHERE m.id = $1"
	run := func(name string, op func() error) {
		b.Run(name, func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := op(); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
	run("head", func() error { _, err := s.Head(ctx, "head"); return err })
	run("key", func() error { _, err := s.PlayerByKeyHash(ctx, rec.KeyHash); return err })
	run("head+key", func() error {
		if _, err := s.PlayerByKeyHash(ctx, rec.KeyHash); err != nil {
			return err
		}
		_, err := s.Head(ctx, "head")
		return err
	})
	run("folded", func() error {
		var v int
		var id, name, nameKey, created, rotated *string
		var hash []byte
		return s.sqlDB.QueryRowContext(ctx, folded, "head", rec.KeyHash).Scan(&v, &id, &name, &nameKey, &hash, &created, &rotated)
	})
}
