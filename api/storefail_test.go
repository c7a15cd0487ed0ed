package api_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/repository/sqlite"
)

// TestStoreLockedBeyondItsTimeoutIsStoreBusy: another process holding the database's write
// lock past the store's busy timeout makes a move answer 503 STORE_BUSY with Retry-After, while
// reads of the match go on; once the lock is released the same move succeeds.
func TestStoreLockedBeyondItsTimeoutIsStoreBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "allfives.db")
	// The match is made through a server with the default busy timeout; the 50 ms one serves
	// only the steps under test, so no setup of the test's own can trip it on a loaded machine.
	tb := serverWith(t, path, sqlite.Options{Sync: "normal"}, 0).create(seed1, false, "human", "human")
	tb.h = serverWith(t, path, sqlite.Options{Sync: "normal", BusyTimeout: 50 * time.Millisecond}, 0)
	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	r := tb.move(0, play("5-5", ""))
	r.problem(t, http.StatusServiceUnavailable, "STORE_BUSY")
	if r.header.Get("Retry-After") == "" {
		t.Fatal("STORE_BUSY without Retry-After")
	}
	if v := tb.view(0); v.Version != 2 {
		t.Fatalf("the failed move changed the match: version %d", v.Version)
	}
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	tb.mustMove(0, play("5-5", ""))
}

// mountTmpfs mounts a tmpfs of size bytes on a fresh directory and unmounts it when the test
// ends. Mounting needs root (CAP_SYS_ADMIN); without it the test is skipped.
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("skipped: mounting a small tmpfs to fill needs root (CAP_SYS_ADMIN); run as root to test a full disk (%v: %s)", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

func resizeTmpfs(t *testing.T, dir string, size int) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", fmt.Sprintf("remount,size=%d", size), dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s: %v: %s", dir, err, out)
	}
}

// TestFullDiskIsStoreFull fills the small disk the database lives on: writes answer 507
// STORE_FULL and /readyz 503 while they fail, reads of a stored match go on, and once the disk
// has room again (the tmpfs grown) the server is ready and takes writes by itself.
func TestFullDiskIsStoreFull(t *testing.T) {
	dir := mountTmpfs(t, 1<<20)
	h := serverWith(t, filepath.Join(dir, "allfives.db"), sqlite.Options{Sync: "normal"}, 0)
	first := h.create(seed1, false, "human", "human")
	ballast, err := os.Create(filepath.Join(dir, "ballast"))
	if err != nil {
		t.Fatal(err)
	}
	defer ballast.Close()
	full := false
	for i := 0; i < 10_000 && !full; i++ {
		r := h.do(http.MethodPost, "/api/v1/matches", botOnlyRequest(1000, "greedy", "random"))
		switch r.status {
		case http.StatusCreated:
			// Take most of the room left, so the disk fills within a few matches.
			if _, err := ballast.Write(make([]byte, 16<<10)); err != nil && !strings.Contains(err.Error(), "no space") {
				t.Fatal(err)
			}
		case http.StatusInsufficientStorage:
			r.problem(t, http.StatusInsufficientStorage, "STORE_FULL")
			full = true
		default:
			t.Fatalf("create on a filling disk: %d %s", r.status, r.body)
		}
	}
	if !full {
		t.Fatal("the disk never filled")
	}
	h.do(http.MethodGet, "/readyz", nil).problem(t, http.StatusServiceUnavailable, "NOT_READY")
	if v := first.view(-1); v.Version != 2 {
		t.Fatalf("a stored match reads as version %d", v.Version)
	}
	resizeTmpfs(t, dir, 64<<20)
	if r := h.do(http.MethodGet, "/readyz", nil); r.status != http.StatusOK {
		t.Fatalf("readyz once the disk has room: %d %s", r.status, r.body)
	}
	first.mustMove(0, play("5-5", ""))
}
