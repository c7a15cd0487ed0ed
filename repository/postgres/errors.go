package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"
)

// SQLSTATEs the store acts on (PostgreSQL, Appendix A).
const (
	codeUniqueViolation      = "23505"
	codeSerializationFailure = "40001"
	codeDeadlockDetected     = "40P01"
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
