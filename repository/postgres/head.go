package postgres

import (
	"context"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
)

var (
	_ referee.HeadReader    = (*Store)(nil)
	_ referee.HeadKeyReader = (*Store)(nil)
)

// Head returns match id's stored version: its matches row's, which every append updates in
// the transaction that adds the events, so it is the log's head. The referee asks it before a
// cached copy serves a read, since another instance may have moved the match on
// (docs/design.md, "Several instances"). Concurrent checks share queries (headbatch.go), and
// the query that answers a check always starts after the check was asked.
func (s *Store) Head(ctx context.Context, id string) (int, error) {
	return s.heads.head(ctx, id, s.sqlDB)
}

// HeadAndKey is Head (-1: no such match) and the player whose current key hashes to keyHash,
// by its id and that hash (a zero Record: none), answered by one query of the head batch,
// which starts after the call, as Head's does: a keyed read costs one round trip, as a token's
// does, and a key rotated by any instance before the call is refused.
func (s *Store) HeadAndKey(ctx context.Context, id string, keyHash []byte) (int, players.Record, error) {
	version, player, err := s.heads.check(ctx, id, keyHash, s.sqlDB)
	if err != nil || player == "" {
		return version, players.Record{}, err
	}
	return version, players.Record{Player: players.Player{ID: player}, KeyHash: keyHash}, nil
}
