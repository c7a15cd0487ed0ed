package sqlite

import (
	"fmt"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/libc/sys/types"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/allfives/allfives/repository/sqlrow"
)

// insertEvent writes one event row with sqlInsertEvent. It binds what run would bind for the
// row's fields (text, an integer, text, text, text, and each hash a blob or NULL when empty,
// as sqlrow.Blob's Value says), but by their types, without an interface value per argument,
// and from one C buffer the connection keeps: the row's bytes are copied there once and bound
// with SQLITE_STATIC, which SQLite reads in place until the bindings are cleared after the
// step. An append writes one row per event, so this is the committer's most frequent call.
func (c *writerConn) insertEvent(r *sqlrow.EventRow) error {
	p, err := c.stmt(sqlInsertEvent)
	if err != nil {
		return err
	}
	// Cleared before the reset, as in step: once cleared, SQLite holds no pointer into buf.
	defer sqlite3.Xsqlite3_reset(c.tls, p)
	defer sqlite3.Xsqlite3_clear_bindings(c.tls, p)
	texts := [...]string{r.MatchID, r.Type, r.Data, r.At}
	blobs := [...][]byte{r.PrevHash, r.Hash}
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	for _, b := range blobs {
		n += len(b)
	}
	buf, err := c.scratch(n)
	if err != nil {
		return err
	}
	at := 0
	put := func(data *byte, size int) uintptr {
		dst := buf + uintptr(at)
		copy(cmem(dst, max(size, 1))[:size], unsafe.Slice(data, size))
		at += size
		return dst
	}
	rc := int32(sqlite3.SQLITE_OK)
	bindText := func(i int32, s string) {
		if rc == sqlite3.SQLITE_OK {
			rc = sqlite3.Xsqlite3_bind_text(c.tls, p, i, put(unsafe.StringData(s), len(s)), int32(len(s)), sqlite3.SQLITE_STATIC)
		}
	}
	bindText(1, r.MatchID)
	if rc == sqlite3.SQLITE_OK {
		rc = sqlite3.Xsqlite3_bind_int64(c.tls, p, 2, int64(r.Seq))
	}
	bindText(3, r.Type)
	bindText(4, r.Data)
	bindText(5, r.At)
	for i, b := range blobs {
		if rc != sqlite3.SQLITE_OK {
			break
		}
		if len(b) == 0 { // sqlrow.Blob's Value: an empty hash is NULL
			rc = sqlite3.Xsqlite3_bind_null(c.tls, p, int32(6+i))
			continue
		}
		rc = sqlite3.Xsqlite3_bind_blob(c.tls, p, int32(6+i), put(unsafe.SliceData(b), len(b)), int32(len(b)), sqlite3.SQLITE_STATIC)
	}
	if rc != sqlite3.SQLITE_OK {
		return c.fail(rc)
	}
	switch rc := sqlite3.Xsqlite3_step(c.tls, p); rc {
	case sqlite3.SQLITE_DONE:
		return nil
	case sqlite3.SQLITE_ROW:
		return fmt.Errorf("insert event: a row where none was expected")
	default:
		return c.fail(rc)
	}
}

// scratch is C memory of at least n bytes (one at least), kept by the connection and grown as
// needed; what it holds is valid only until the next call.
func (c *writerConn) scratch(n int) (uintptr, error) {
	n = max(n, 1)
	if n <= c.bufSize {
		return c.buf, nil
	}
	size := max(n, 2*c.bufSize, 4096)
	p := libc.Xrealloc(c.tls, c.buf, types.Size_t(size))
	if p == 0 {
		return 0, fmt.Errorf("sqlite: out of memory for %d bytes", size)
	}
	c.buf, c.bufSize = p, size
	return p, nil
}
