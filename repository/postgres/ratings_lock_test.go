package postgres_test

import (
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// TestRatingsLockOneAtATime: while one instance's projection transaction runs, another's
// does not run; once it ends, the other's does.
func TestRatingsLockOneAtATime(t *testing.T) {
	url := pgtest.URL(t)
	var stores [2]*postgres.Store
	for i := range stores {
		s, err := postgres.Open(ctx, url, postgres.Options{MaxConns: 2})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores[i] = s
	}
	inside, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := stores[0].Project(ctx, func(ratings.Tx) error {
			close(inside)
			<-release
			return nil
		})
		done <- err
	}()
	<-inside
	ran, err := stores[1].Project(ctx, func(ratings.Tx) error { return nil })
	if err != nil || ran {
		t.Fatalf("a second instance's projection while the first's runs: ran %v, %v", ran, err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		ran, err := stores[1].Project(ctx, func(ratings.Tx) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if ran {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the lock never passed to the second instance")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
