package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// SQLSTATEs the store acts on (PostgreSQL, Appendix A).
const (
	codeUniqueViolation      = "23505"
	codeSerializationFailure = "40001"
	codeDeadlockDetected     = "40P01"
	codeLockNotAvailable     = "55P03" // lock_timeout expired, or NOWAIT
	codeQueryCanceled        = "57014" // statement_timeout expired, or a cancel request
	codeDiskFull             = "53100"
	codeBadEncoding          = "22021" // a text parameter that is not UTF-8, or holds a NUL
)

// sqlState is the SQLSTATE of a PostgreSQL error, "" for any other error.
func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// retryable says whether a transaction that failed with err may simply run again: the server
// rolled it back whole because of another transaction, not because of anything in it.
func retryable(err error) bool {
	switch sqlState(err) {
	case codeSerializationFailure, codeDeadlockDetected:
		return true
	}
	return false
}

// inTx runs fn in a READ COMMITTED transaction, again (up to s.retries more times, after a
// short growing pause) when the server rolled it back as retryable. fn must have no effect
// outside the transaction, since it may run more than once.
func (s *Store) inTx(ctx context.Context, fn func(tx *gorm.DB) error) error {
	for attempt := 0; ; attempt++ {
		err := s.db.WithContext(ctx).Transaction(fn)
		if err == nil || attempt >= s.retries || !retryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(attempt+1) * 5 * time.Millisecond):
		}
	}
}

// classify turns the PostgreSQL failures a client can act on into storeerr's errors: a lock held
// beyond lock_timeout, or a statement_timeout that expired while the statement waited for a
// row lock, is ErrStoreBusy (503 STORE_BUSY, retry shortly); a full disk is ErrStoreFull (507
// STORE_FULL); a text parameter that is not UTF-8 is ErrInvalid (400); a database that cannot be reached is ErrStoreUnavailable (503
// STORE_UNAVAILABLE, unavailable.go). A statement cancelled for any other reason (the caller's context, a slow query)
// passes as it is. Call it deferred from every method: defer classify(&err).
func classify(errp *error) {
	err := *errp
	if err == nil {
		return
	}
	if unreachable(err) && !errors.Is(err, storeerr.ErrStoreUnavailable) {
		*errp = fmt.Errorf("%w: %v", storeerr.ErrStoreUnavailable, err)
		return
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return
	}
	switch {
	case pe.Code == codeLockNotAvailable, pe.Code == codeQueryCanceled && lockWait(pe):
		*errp = fmt.Errorf("%w: %v", storeerr.ErrStoreBusy, err)
	case pe.Code == codeDiskFull:
		*errp = fmt.Errorf("%w: %v", storeerr.ErrStoreFull, err)
	case pe.Code == codeBadEncoding:
		// Only a client's bytes (a cursor's id, a filter) are ever such a parameter: a 400.
		*errp = domain.Invalidf("a parameter is not UTF-8 text")
	}
}

// lockWait says whether a cancelled statement was cut short by a timeout while it waited for
// a row lock: PostgreSQL then gives the error the context "while locking tuple ..." (or
// updating, deleting, ...), which a statement cancelled at its caller's request never has.
func lockWait(pe *pgconn.PgError) bool {
	return strings.Contains(pe.Message, "timeout") && strings.Contains(pe.Where, " tuple ")
}
