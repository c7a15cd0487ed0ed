package sqlite

import (
	"context"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/players"
	"github.com/allfives/allfives/repository/sqlrow"
)

var _ players.Store = (*Store)(nil)

// CreatePlayer stores a new player; a name key already stored is domain.ErrNameTaken. Like a
// create of a match it runs on the writer, between the committer's batches.
func (s *Store) CreatePlayer(ctx context.Context, rec players.Record) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "create player %s", rec.ID)
	s.writing.Lock()
	defer s.writing.Unlock()
	return sqlrow.CreatePlayer(s.w.WithContext(ctx), rec)
}

// Player returns the player with that id, or domain.ErrPlayerNotFound.
func (s *Store) Player(ctx context.Context, id string) (_ players.Record, err error) {
	defer s.read(&err)
	return sqlrow.PlayerWhere(s.r.WithContext(ctx), "id", id)
}

// PlayerByKeyHash returns the player whose key hashes to hash, by the unique index on
// key_hash, or domain.ErrPlayerNotFound. It reads from the pool: a rotation committed on the
// writer is seen by every read that starts after it (WAL), so the old key fails at once.
func (s *Store) PlayerByKeyHash(ctx context.Context, hash []byte) (_ players.Record, err error) {
	defer s.read(&err)
	return sqlrow.PlayerWhere(s.r.WithContext(ctx), "key_hash", hash)
}

// RotatePlayerKey replaces the key hash of player id with next if it is still prev.
func (s *Store) RotatePlayerKey(ctx context.Context, id string, prev, next []byte, at time.Time) (_ bool, err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "rotate the key of player %s", id)
	s.writing.Lock()
	defer s.writing.Unlock()
	return sqlrow.RotatePlayerKey(s.w.WithContext(ctx), id, prev, next, sqlrow.FormatTime(at))
}
