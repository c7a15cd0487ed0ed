package repository_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/storetest"
	"github.com/allfives/allfives/repository"
)

var ctx = context.Background()

// openStore opens a store on a new file in t's temp dir and closes it when t ends.
func openStore(tb testing.TB, opts repository.Options) (*repository.Store, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "allfives.db")
	s, err := repository.Open(ctx, path, opts)
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("close: %v", err)
		}
	})
	return s, path
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) domain.EventStore {
		s, _ := openStore(t, repository.Options{})
		return s
	})
}
