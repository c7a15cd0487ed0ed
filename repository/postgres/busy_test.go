package postgres_test

import (
	"errors"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/storetest"
)

// TestLockHeldIsStoreBusy: an append that waits for its match's row lock, held by another
// transaction, beyond lock_timeout, or beyond statement_timeout while it waits, fails with
// STORE_BUSY, which a client may retry; once the lock is released the same append goes
// through.
//
// Only the append under test runs with the 100 ms timeouts. statement_timeout bounds a
// statement's whole run, not only its lock waits, and on a loaded machine creating a match (or
// migrating) can take longer than 100 ms: done through the tight store, the fixture's setup
// failed with SQLSTATE 57014 before the test reached its point. So the migrations, the match
// and the retry go through a store with the default timeouts on the same database, and the
// tight store is opened without migrating, for the one append that must be refused.
func TestLockHeldIsStoreBusy(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts postgres.Options
	}{
		{"lock_timeout", postgres.Options{LockTimeout: 100 * time.Millisecond, NoMigrate: true}},
		{"statement_timeout", postgres.Options{LockTimeout: time.Minute, StatementTimeout: 100 * time.Millisecond, NoMigrate: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			roomy, url := openStore(t, postgres.Options{})
			f := storetest.NewFixture(t, "busy", storetest.Base, 0)
			if err := f.Create(ctx, roomy); err != nil {
				t.Fatal(err)
			}
			tight := openAt(t, url, tc.opts)
			conn := connect(t, url)
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(ctx, "SELECT id FROM matches WHERE id = 'busy' FOR UPDATE"); err != nil {
				t.Fatal(err)
			}
			a := f.Next(t)
			err = tight.Append(ctx, a)
			if !errors.Is(err, storeerr.ErrStoreBusy) || domain.CodeOf(err) != storeerr.CodeStoreBusy {
				t.Fatalf("append behind a held lock: %v (code %s), want STORE_BUSY", err, domain.CodeOf(err))
			}
			if err := tx.Rollback(ctx); err != nil {
				t.Fatal(err)
			}
			// The refused append left nothing behind: the same event is the next one still.
			if err := roomy.Append(ctx, a); err != nil {
				t.Fatalf("the retry once the lock is free: %v", err)
			}
		})
	}
}
