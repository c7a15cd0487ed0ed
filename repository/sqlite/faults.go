package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	gosqlite "github.com/glebarez/go-sqlite"
	"gorm.io/gorm"

	"github.com/allfives/allfives/domain/app/storeerr"
)

// SQLite's primary result codes the store tells clients about (https://sqlite.org/rescode.html).
const (
	sqliteBusy     = 5
	sqliteLocked   = 6
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteFull     = 13
	sqliteCantOpen = 14
)

// sqliteCode is the primary result code of a SQLite error in err's chain (the driver's or the
// committer's connection's), or 0.
func sqliteCode(err error) int {
	var de *gosqlite.Error
	var we *sqliteError
	switch {
	case errors.As(err, &de):
		return de.Code() & 0xff
	case errors.As(err, &we):
		return we.code & 0xff
	}
	return 0
}

// classify turns the SQLite failures a client can act on into storeerr's errors: a lock held by
// another process beyond the busy timeout is ErrStoreBusy (503 STORE_BUSY, retry shortly), a
// full disk or database is ErrStoreFull (507 STORE_FULL). Other errors pass as they are.
func classify(err error) error {
	switch sqliteCode(err) {
	case sqliteBusy, sqliteLocked:
		return fmt.Errorf("%w: %v", storeerr.ErrStoreBusy, err)
	case sqliteFull:
		return fmt.Errorf("%w: %v", storeerr.ErrStoreFull, err)
	}
	return err
}

// writeFault remembers that the last write failed for want of space or because the file
// cannot be written, so that readiness says so until a write succeeds again.
type writeFault struct {
	err atomic.Pointer[error]
}

// wrote records the outcome of a write and classifies its error; call it deferred from every
// write: defer s.wrote(&err).
func (s *Store) wrote(errp *error) {
	err := *errp
	switch {
	case err == nil:
		s.fault.err.Store(nil)
		return
	case sqliteCode(err) == sqliteFull, sqliteCode(err) == sqliteIOErr, sqliteCode(err) == sqliteReadOnly:
		s.fault.err.Store(&err)
	}
	*errp = classify(err)
}

// read classifies a read's error; call it deferred from every read: defer s.read(&err).
func (s *Store) read(errp *error) {
	if *errp != nil {
		*errp = classify(*errp)
	}
}

// probeWrite makes one real, empty write: a write transaction that sets user_version to the
// value it has, which SQLite commits to the WAL like any other. It fails on a read-only or
// unwritable file, and on a full disk.
func (s *Store) probeWrite(ctx context.Context) error {
	s.writing.Lock()
	defer s.writing.Unlock()
	return s.w.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var v int
		if err := tx.Raw("PRAGMA user_version").Scan(&v).Error; err != nil {
			return err
		}
		return tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", v)).Error
	})
}

// canWrite checks, before SQLite opens the database, that its file (when there is one) and its
// directory, where SQLite keeps the -wal and -shm files, can be written: SQLite would otherwise
// open a read-only file read-only, or fail with "unable to open database file".
func canWrite(path string) error {
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".allfives-write-check-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// writable refuses a database the store cannot write (a read-only file or directory, a
// read-only mount), naming the cause in one line, so that the server does not start and fail
// every move.
func (s *Store) writable(ctx context.Context, path string) error {
	err := s.probeWrite(ctx)
	switch code := sqliteCode(err); {
	case err == nil:
		return nil
	case code == sqliteReadOnly || code == sqliteCantOpen || code == sqliteIOErr:
		return fmt.Errorf("open %s: the database cannot be written (a read-only file, directory or mount?): %v", path, err)
	}
	return fmt.Errorf("open %s: a test write failed: %v", path, err)
}
