package sqlite

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
)

// TestOpenOptions: the sync option reaches the writer, the read pool refuses writes, and
// paths the store cannot serve are refused up front.
func TestOpenOptions(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for mode, want := range map[string]int{"": 2, "full": 2, "FULL": 2, "normal": 1, "off": 0} {
		s, err := Open(ctx, filepath.Join(dir, "o"+mode+".db"), Options{Sync: mode})
		if err != nil {
			t.Fatalf("sync %q: %v", mode, err)
		}
		var got int
		if err := s.w.Raw("PRAGMA synchronous").Scan(&got).Error; err != nil || got != want {
			t.Errorf("sync %q: PRAGMA synchronous = %d (%v), want %d", mode, got, err, want)
		}
		var fk, busy int
		s.w.Raw("PRAGMA foreign_keys").Scan(&fk)
		s.r.Raw("PRAGMA busy_timeout").Scan(&busy)
		if fk != 1 || busy != busyTimeoutMS {
			t.Errorf("foreign_keys %d, reader busy_timeout %d", fk, busy)
		}
		if err := s.r.Exec("CREATE TABLE x (a)").Error; err == nil {
			t.Error("the read pool accepted a write")
		}
		if err := s.Ping(ctx); err != nil {
			t.Errorf("ping: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}
	if _, err := Open(ctx, filepath.Join(dir, "x.db"), Options{Sync: "sometimes"}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("bad sync: %v", err)
	}
	for _, p := range []string{":memory:", filepath.Join(dir, "a.db?mode=memory")} {
		if _, err := Open(ctx, p, Options{}); err == nil {
			t.Errorf("open %q: want an error", p)
		}
	}
	missing := filepath.Join(dir, "no such dir", "a.db")
	if _, err := Open(ctx, missing, Options{}); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "no such dir") {
		t.Errorf("open %q: got %v, want an error naming the missing directory", missing, err)
	}
}
