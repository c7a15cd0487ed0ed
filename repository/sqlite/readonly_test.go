package sqlite_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/allfives/allfives/repository/sqlite"
)

// TestReadOnlyDatabaseRefusesToOpen: a database that cannot be written is refused when the
// store opens, in one line that says so, rather than opened to fail every move. As root, whom
// file modes do not stop, the file's disk is remounted read-only (a tmpfs); otherwise the file
// and its directory are made read-only.
func TestReadOnlyDatabaseRefusesToOpen(t *testing.T) {
	dir := t.TempDir()
	root := os.Geteuid() == 0
	if root {
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", dir).CombinedOutput(); err != nil {
			t.Skipf("skipped: as root a read-only database needs a read-only mount, and mounting a tmpfs failed (%v: %s); run without root or with CAP_SYS_ADMIN", err, strings.TrimSpace(string(out)))
		}
		t.Cleanup(func() { exec.Command("umount", dir).Run() })
	}
	path := filepath.Join(dir, "allfives.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if root {
		if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
			t.Fatalf("remount read-only: %v: %s", err, out)
		}
	} else {
		if err := os.Chmod(path, 0o444); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
	}
	s, err = sqlite.Open(ctx, path, sqlite.Options{})
	if err == nil {
		s.Close()
		t.Fatal("a read-only database opened")
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "cannot be written") || !strings.Contains(msg, path) {
		t.Fatalf("the refusal is not one clear line naming the file: %q", msg)
	}
	if root {
		if out, err := exec.Command("mount", "-o", "remount,rw", dir).CombinedOutput(); err != nil {
			t.Fatalf("remount read-write: %v: %s", err, out)
		}
		s, err := sqlite.Open(ctx, path, sqlite.Options{})
		if err != nil {
			t.Fatalf("once writable again: %v", err)
		}
		s.Close()
	}
}
