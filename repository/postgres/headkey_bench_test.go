package postgres

import (
	"context"
	"testing"

	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

// BenchmarkHeadKey measures one reader's round trips, one after the other, as a state read
// makes them on an idle instance (no batching): a token's head check (head), a keyed read's
// two before the fold (head+key: Head, then PlayerByKeyHash), and the fold (headkey: one
// HeadAndKey). Run:
//
//	go test ./repository/postgres -run '^$' -bench HeadKey -benchmem
func BenchmarkHeadKey(b *testing.B) {
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
	b.Run("head", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Head(ctx, "head"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("key", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.PlayerByKeyHash(ctx, rec.KeyHash); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("head+key", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Head(ctx, "head"); err != nil {
				b.Fatal(err)
			}
			if _, err := s.PlayerByKeyHash(ctx, rec.KeyHash); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("headkey", func(b *testing.B) {
		for b.Loop() {
			v, p, err := s.HeadAndKey(ctx, "head", rec.KeyHash)
			if err != nil || v < 0 || p.ID != rec.ID {
				b.Fatal(v, p.ID, err)
			}
		}
	})
}
