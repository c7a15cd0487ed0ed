package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/allfives/allfives/repository/storetest"
)

// BenchmarkHeadKey measures what a player key adds to a state read on PostgreSQL, where every
// instance must ask the database (a rotation on one instance refuses the old key at once on
// all): a token's head check (head), the key's lookup alone (key), a keyed read's two round
// trips before the fold (head+key: Head, then PlayerByKeyHash), and the fold (headkey: one
// HeadAndKey). Each runs by one reader, one call after another, as on an idle instance, and by
// parallel readers, whose head checks share queries. Run:
//
//	go test ./repository/postgres -run '^$' -bench HeadKey -benchmem
func BenchmarkHeadKey(b *testing.B) {
	ctx := context.Background()
	s := openFresh(b, Options{MaxConns: 4})
	f := storetest.NewFixture(b, "head", storetest.Base, 0)
	if err := f.Create(ctx, s); err != nil {
		b.Fatal(err)
	}
	rec := storetest.NewPlayer(b, "Ada", storetest.Base)
	if err := s.CreatePlayer(ctx, rec); err != nil {
		b.Fatal(err)
	}
	ops := []struct {
		name string
		op   func() error
	}{
		{"head", func() error { _, err := s.Head(ctx, "head"); return err }},
		{"key", func() error { _, err := s.PlayerByKeyHash(ctx, rec.KeyHash); return err }},
		{"head+key", func() error {
			if _, err := s.Head(ctx, "head"); err != nil {
				return err
			}
			_, err := s.PlayerByKeyHash(ctx, rec.KeyHash)
			return err
		}},
		{"headkey", func() error {
			v, p, err := s.HeadAndKey(ctx, "head", rec.KeyHash)
			if err == nil && (v < 0 || p.ID != rec.ID) {
				err = fmt.Errorf("HeadAndKey = %d, %q; want the match's head and %q", v, p.ID, rec.ID)
			}
			return err
		}},
	}
	for _, o := range ops {
		b.Run(o.name, func(b *testing.B) {
			for b.Loop() {
				if err := o.op(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(o.name+"/parallel", func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := o.op(); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
