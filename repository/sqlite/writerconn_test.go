package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/repository/sqlrow"
)

// openTestWriter opens a store in t's temp dir (for its schema and gorm's writer) and a second
// committer-style connection to the same file.
func openTestWriter(t *testing.T, busyMS int) (*Store, *writerConn, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "w.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	wc, err := openWriter(path, writerPragmas("FULL", busyMS))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wc.close() })
	return s, wc, path
}

func TestWriterConnBindsLikeTheDriver(t *testing.T) {
	// given a table of untyped columns, and values of every kind the append binds
	s, wc, _ := openTestWriter(t, 1000)
	db, err := s.w.DB()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE kinds (who TEXT, v)"); err != nil {
		t.Fatal(err)
	}
	values := map[string]any{
		"nil": nil, "int": 7, "int64": int64(-1 << 40), "true": true, "false": false,
		"text": "é 6-4 \"x\"", "empty text": "", "bytes": []byte{0, 1, 255}, "empty bytes": []byte{},
		"nil bytes": []byte(nil), "blob": sqlrow.Blob{9, 8}, "empty blob": sqlrow.Blob{},
	}
	for name, v := range values {
		// when the committer's connection and the driver each store it
		if _, err := wc.run("INSERT INTO kinds VALUES (?, ?)", "raw "+name, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := db.Exec("INSERT INTO kinds VALUES (?, ?)", "driver "+name, v); err != nil {
			t.Fatalf("%s through the driver: %v", name, err)
		}
		// then both rows hold the same type and value
		var raw, drv string
		q := "SELECT typeof(v) || ' ' || quote(v) FROM kinds WHERE who = ?"
		if err := db.QueryRow(q, "raw "+name).Scan(&raw); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(q, "driver "+name).Scan(&drv); err != nil {
			t.Fatal(err)
		}
		if raw != drv {
			t.Errorf("%s: stored as %s, the driver stores %s", name, raw, drv)
		}
	}
	if _, err := wc.run("INSERT INTO kinds VALUES (?, ?)", "float", 1.5); err == nil {
		t.Error("a float64 was bound; the append never binds one and bind should refuse it")
	}
}

func TestWriterConnCompilesEachStatementOnce(t *testing.T) {
	// given the committer's connection
	_, wc, _ := openTestWriter(t, 1000)
	before := len(wc.stmts)
	// when one query runs three times with different arguments
	for _, id := range []string{"a", "b", "c"} {
		if _, found, err := wc.queryInt(sqlVersion, id); err != nil || found {
			t.Fatalf("version of %s: found %v, %v", id, found, err)
		}
	}
	// then it was compiled once, and a statement SQLite cannot compile is an error
	if got := len(wc.stmts) - before; got != 1 {
		t.Errorf("%d statements compiled, want 1", got)
	}
	if _, err := wc.run("SELEC nothing"); err == nil {
		t.Error("bad SQL ran")
	}
}

func TestWriterConnErrorsKeepTheirMeaning(t *testing.T) {
	// given the committer's connection and a stored row
	_, wc, path := openTestWriter(t, 50)
	if _, err := wc.run("CREATE TABLE keyed (k TEXT PRIMARY KEY, u INTEGER UNIQUE)"); err != nil {
		t.Fatal(err)
	}
	if _, err := wc.run("INSERT INTO keyed VALUES (?, ?)", "a", 1); err != nil {
		t.Fatal(err)
	}
	// when the same key is inserted again
	_, err := wc.run("INSERT INTO keyed VALUES (?, ?)", "a", 2)
	// then the clash is gorm's ErrDuplicatedKey with SQLite's code, as through the driver
	if !errors.Is(err, gorm.ErrDuplicatedKey) || sqliteCode(err) != 19 {
		t.Fatalf("duplicate key: %v (code %d)", err, sqliteCode(err))
	}
	if _, err := wc.run("INSERT INTO keyed VALUES (?, ?)", "b", 1); !errors.Is(err, gorm.ErrDuplicatedKey) {
		t.Fatalf("duplicate unique value: %v", err)
	}
	// and when another process holds the write lock past the busy timeout
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
	defer conn.ExecContext(context.Background(), "ROLLBACK")
	_, err = wc.run(sqlBegin)
	// then beginning fails as busy, which clients hear as STORE_BUSY
	if !errors.Is(classify(err), storeerr.ErrStoreBusy) {
		t.Fatalf("begin under another's lock: %v", err)
	}
}
