package sqlite

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"unsafe"

	"gorm.io/gorm"
	"modernc.org/libc"
	"modernc.org/libc/sys/types"
	sqlite3 "modernc.org/sqlite/lib"
)

// writerConn is the committer's own connection, opened through SQLite's C API as
// modernc.org/sqlite/lib exports it: the same SQLite, in the same process, that
// glebarez/go-sqlite runs under gorm. That driver compiles a statement's SQL again on every
// execution (it keeps no compiled statement in v1.21.2, the version go.mod pins): under
// `allfives bench` at sync=full, sqlite3_prepare_v2 was a third of the committer's CPU. Here each statement is
// compiled once and then only bound, stepped and reset. No well-kept library offers this
// beside the driver gorm uses: modernc.org/sqlite's own driver caches statements but registers
// the same driver name ("sqlite") as glebarez/go-sqlite, so the two cannot be linked together.
// Only the committer goroutine uses a writerConn, one call at a time, so it has no lock.
type writerConn struct {
	tls   *libc.TLS
	db    uintptr            // sqlite3*
	stmts map[string]uintptr // sqlite3_stmt* by SQL text
	// buf is C memory of bufSize bytes that insertEvent binds from (scratch).
	buf     uintptr
	bufSize int
}

// sqliteError is a failure of the writer connection: SQLite's extended result code and
// message. A primary-key or unique clash also matches gorm.ErrDuplicatedKey, like the
// driver's errors once gorm has translated them.
type sqliteError struct {
	code int
	msg  string
}

func (e *sqliteError) Error() string { return fmt.Sprintf("%s (%d)", e.msg, e.code) }

func (e *sqliteError) Unwrap() error {
	if e.code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || e.code == sqlite3.SQLITE_CONSTRAINT_UNIQUE {
		return gorm.ErrDuplicatedKey
	}
	return nil
}

// openWriter opens the database at path for reading and writing and runs each of pragmas
// (e.g. "synchronous(FULL)") on it, in order.
func openWriter(path string, pragmas []string) (c *writerConn, err error) {
	c = &writerConn{tls: libc.NewTLS(), stmts: map[string]uintptr{}}
	defer func() {
		if err != nil {
			c.close()
		}
	}()
	name, err := libc.CString(path)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(c.tls, name)
	out, err := c.pointerOut()
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(c.tls, out)
	const flags = sqlite3.SQLITE_OPEN_READWRITE | sqlite3.SQLITE_OPEN_CREATE | sqlite3.SQLITE_OPEN_FULLMUTEX
	rc := sqlite3.Xsqlite3_open_v2(c.tls, name, out, flags, 0)
	c.db = libc.AtomicLoadPUintptr(out) // set even on failure, to be closed
	if rc != sqlite3.SQLITE_OK {
		return nil, fmt.Errorf("open %s: %w", path, c.fail(rc))
	}
	sqlite3.Xsqlite3_extended_result_codes(c.tls, c.db, 1)
	for _, p := range pragmas {
		if _, err := c.run("PRAGMA " + p); err != nil {
			return nil, fmt.Errorf("pragma %s: %w", p, err)
		}
	}
	return c, nil
}

// pointerOut allocates C memory for one pointer that a call of the C API sets.
func (c *writerConn) pointerOut() (uintptr, error) {
	p := libc.Xcalloc(c.tls, 1, types.Size_t(unsafe.Sizeof(uintptr(0))))
	if p == 0 {
		return 0, errors.New("sqlite: out of memory")
	}
	return p, nil
}

// fail is the error for result code rc, with the connection's own message when it has one.
func (c *writerConn) fail(rc int32) error {
	msg := libc.GoString(sqlite3.Xsqlite3_errstr(c.tls, rc))
	if c.db != 0 {
		if code := sqlite3.Xsqlite3_extended_errcode(c.tls, c.db); code&0xff == rc&0xff {
			rc, msg = code, libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db))
		}
	}
	return &sqliteError{code: int(rc), msg: msg}
}

// stmt is sql compiled, once per connection.
func (c *writerConn) stmt(sql string) (uintptr, error) {
	if p, ok := c.stmts[sql]; ok {
		return p, nil
	}
	q, err := libc.CString(sql)
	if err != nil {
		return 0, err
	}
	defer libc.Xfree(c.tls, q)
	out, err := c.pointerOut()
	if err != nil {
		return 0, err
	}
	defer libc.Xfree(c.tls, out)
	if rc := sqlite3.Xsqlite3_prepare_v3(c.tls, c.db, q, -1, sqlite3.SQLITE_PREPARE_PERSISTENT, out, 0); rc != sqlite3.SQLITE_OK {
		return 0, fmt.Errorf("prepare %q: %w", sql, c.fail(rc))
	}
	p := libc.AtomicLoadPUintptr(out)
	if p == 0 {
		return 0, fmt.Errorf("prepare %q: no statement in it", sql)
	}
	c.stmts[sql] = p
	return p, nil
}

// run executes one statement with args and reports how many rows it changed.
func (c *writerConn) run(sql string, args ...any) (changed int64, err error) {
	err = c.step(sql, args, func(p uintptr, row bool) {
		if !row {
			changed = int64(sqlite3.Xsqlite3_changes64(c.tls, c.db))
		}
	})
	return changed, err
}

// queryInt reads the first column of the first row as an integer; found is false when there
// is no row.
func (c *writerConn) queryInt(sql string, args ...any) (v int64, found bool, err error) {
	err = c.step(sql, args, func(p uintptr, row bool) {
		if row {
			v, found = int64(sqlite3.Xsqlite3_column_int64(c.tls, p, 0)), true
		}
	})
	return v, found, err
}

// queryBytes reads the first column of the first row as bytes (nil for NULL); found is false
// when there is no row.
func (c *writerConn) queryBytes(sql string, args ...any) (v []byte, found bool, err error) {
	err = c.step(sql, args, func(p uintptr, row bool) {
		if !row {
			return
		}
		found = true
		// In this order (https://sqlite.org/c3ref/column_blob.html); SQLite reuses its copy
		// once the statement is reset, so keep one of our own.
		data := sqlite3.Xsqlite3_column_blob(c.tls, p, 0)
		if n := int(sqlite3.Xsqlite3_column_bytes(c.tls, p, 0)); n > 0 {
			v = append([]byte(nil), cmem(data, n)...)
		}
	})
	return v, found, err
}

// step binds args to sql's statement, steps it once and calls got with the statement and
// whether it produced a row (false: it is done), then resets it for the next use.
func (c *writerConn) step(sql string, args []any, got func(p uintptr, row bool)) error {
	p, err := c.stmt(sql)
	if err != nil {
		return err
	}
	defer sqlite3.Xsqlite3_reset(c.tls, p)
	defer sqlite3.Xsqlite3_clear_bindings(c.tls, p)
	if err := c.bind(p, args); err != nil {
		return err
	}
	switch rc := sqlite3.Xsqlite3_step(c.tls, p); rc {
	case sqlite3.SQLITE_ROW:
		got(p, true)
	case sqlite3.SQLITE_DONE:
		got(p, false)
	default:
		return c.fail(rc)
	}
	return nil
}

// bind binds args to p's parameters 1, 2, ...: what database/sql would pass the driver
// (driver.Valuer first), bound as glebarez/go-sqlite binds it, so that a row reads back the
// same whichever connection wrote it.
func (c *writerConn) bind(p uintptr, args []any) error {
	for i, a := range args {
		n := int32(i + 1)
		if v, ok := a.(driver.Valuer); ok {
			var err error
			if a, err = v.Value(); err != nil {
				return err
			}
		}
		var rc int32
		switch v := a.(type) {
		case nil:
			rc = sqlite3.Xsqlite3_bind_null(c.tls, p, n)
		case int:
			rc = sqlite3.Xsqlite3_bind_int64(c.tls, p, n, int64(v))
		case int64:
			rc = sqlite3.Xsqlite3_bind_int64(c.tls, p, n, v)
		case bool:
			rc = sqlite3.Xsqlite3_bind_int64(c.tls, p, n, int64(libc.Bool32(v)))
		case string:
			rc = c.bindBytes(p, n, unsafe.StringData(v), len(v), true)
		case []byte: // nil too is an empty blob, as through the driver
			rc = c.bindBytes(p, n, unsafe.SliceData(v), len(v), false)
		default:
			return fmt.Errorf("sqlite: cannot bind a %T", a)
		}
		if rc != sqlite3.SQLITE_OK {
			return c.fail(rc)
		}
	}
	return nil
}

// bindBytes binds the n bytes at data as text or blob. They go through C memory, since the C
// API takes no Go pointer; SQLite keeps a copy of its own (SQLITE_TRANSIENT).
func (c *writerConn) bindBytes(p uintptr, i int32, data *byte, n int, text bool) int32 {
	buf := libc.Xmalloc(c.tls, types.Size_t(max(n, 1)))
	if buf == 0 {
		return sqlite3.SQLITE_NOMEM
	}
	defer libc.Xfree(c.tls, buf)
	if n > 0 {
		copy(cmem(buf, n), unsafe.Slice(data, n))
	}
	if text {
		return sqlite3.Xsqlite3_bind_text(c.tls, p, i, buf, int32(n), sqlite3.SQLITE_TRANSIENT)
	}
	return sqlite3.Xsqlite3_bind_blob(c.tls, p, i, buf, int32(n), sqlite3.SQLITE_TRANSIENT)
}

// cmem is the n bytes of C memory at p as a Go slice. C memory lies outside Go's heap, so
// the garbage collector ignores the pointer; reading p's bits as a pointer, rather than
// converting the integer, tells go vet that this is meant.
func cmem(p uintptr, n int) []byte {
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), n)
}

// close finalizes the statements and closes the connection; SQLite checkpoints the WAL when
// the last connection to the file closes.
func (c *writerConn) close() error {
	for _, p := range c.stmts {
		sqlite3.Xsqlite3_finalize(c.tls, p)
	}
	c.stmts = nil
	if c.buf != 0 { // after the statements: none may hold a pointer into it
		libc.Xfree(c.tls, c.buf)
		c.buf, c.bufSize = 0, 0
	}
	var err error
	if c.db != 0 {
		if rc := sqlite3.Xsqlite3_close_v2(c.tls, c.db); rc != sqlite3.SQLITE_OK {
			err = c.fail(rc)
		}
		c.db = 0
	}
	c.tls.Close()
	return err
}
