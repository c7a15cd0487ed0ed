package postgres_test

import (
	"errors"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/storetest"
)

// TestLockHeldIsStoreBusy: an append that waits for its match's row lock, held by another
// transaction, beyond lock_timeout, or beyond statement_timeout while it waits, fails with
// STORE_BUSY, which a client may retry; once the lock is released the same append goes
// through.
func TestLockHeldIsStoreBusy(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts postgres.Options
	}{
		{"lock_timeout", postgres.Options{LockTimeout: 100 * time.Millisecond}},
		{"statement_timeout", postgres.Options{LockTimeout: time.Minute, StatementTimeout: 100 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Migrate with the defaults: a 100 ms statement timeout is too short for that.
			_, url := openStore(t, postgres.Options{})
			s := openAt(t, url, tc.opts)
			f := storetest.NewFixture(t, "busy", storetest.Base, 0)
			if err := f.Create(ctx, s); err != nil {
				t.Fatal(err)
			}
			conn := connect(t, url)
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(ctx, "SELECT id FROM matches WHERE id = 'busy' FOR UPDATE"); err != nil {
				t.Fatal(err)
			}
			a := f.Next(t)
			err = s.Append(ctx, a)
			if !errors.Is(err, domain.ErrStoreBusy) || domain.CodeOf(err) != domain.CodeStoreBusy {
				t.Fatalf("append behind a held lock: %v (code %s), want STORE_BUSY", err, domain.CodeOf(err))
			}
			if err := tx.Rollback(ctx); err != nil {
				t.Fatal(err)
			}
			if err := s.Append(ctx, a); err != nil {
				t.Fatalf("the retry once the lock is free: %v", err)
			}
		})
	}
}
