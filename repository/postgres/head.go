package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/referee"
)

var _ referee.HeadReader = (*Store)(nil)

// Head returns match id's stored version: one read of its matches row by the primary key,
// which every append updates in the transaction that adds the events, so it is the log's head.
// The referee asks it before a cached copy serves a read, since another instance may have
// moved the match on (docs/design.md, "Several instances").
func (s *Store) Head(ctx context.Context, id string) (version int, err error) {
	defer classify(&err)
	// Straight on the pool, past gorm: it is the one query of every read.
	err = s.sqlDB.QueryRowContext(ctx, "SELECT version FROM matches WHERE id = $1", id).Scan(&version)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("head of %q: %w", id, domain.ErrMatchNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("head of %s: %w", id, err)
	}
	return version, nil
}
