package postgres

import (
	"context"

	"github.com/allfives/allfives/domain/referee"
)

var _ referee.HeadReader = (*Store)(nil)

// Head returns match id's stored version: its matches row's, which every append updates in
// the transaction that adds the events, so it is the log's head. The referee asks it before a
// cached copy serves a read, since another instance may have moved the match on
// (docs/design.md, "Several instances"). Concurrent checks share queries (headbatch.go), and
// the query that answers a check always starts after the check was asked.
func (s *Store) Head(ctx context.Context, id string) (int, error) {
	return s.heads.head(ctx, id, s.sqlDB)
}
