package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// unreachable says whether err means the database could not be reached, or the connection to
// it was lost mid-statement: PostgreSQL restarting or shutting down, a pooler that cannot
// reach it, a refused or reset connection. Such a failure says nothing about the request, so
// it is answered 503 STORE_UNAVAILABLE (errors.go, classify), never 500, and never as a
// refusal. A statement cancelled because its caller's context ended is not one of them.
func unreachable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	if code := sqlState(err); code != "" {
		// Class 08 is "connection exception"; 57P01-57P03 are an administrator's shutdown, a
		// crash's and "the database system is starting up"; 53300 is too many connections.
		return strings.HasPrefix(code, "08") || code == "57P01" || code == "57P02" || code == "57P03" || code == "53300"
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	switch {
	case errors.As(err, &ce), errors.As(err, &ne),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return true
	}
	// pgx reports a connection it closed after a failure by text only.
	msg := err.Error()
	return strings.Contains(msg, "conn closed") ||
		strings.Contains(msg, "connection reset") || strings.Contains(msg, "broken pipe") ||
		strings.Contains(msg, "failed to connect") || strings.Contains(msg, "unexpected EOF")
}
