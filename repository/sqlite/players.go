package sqlite

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository/sqlrow"
)

var _ players.Store = (*Store)(nil)

// CreatePlayer stores a new player; a name key or name skeleton already stored is
// players.ErrNameTaken. Like a
// create of a match it runs on the writer, between the committer's batches. The new player's
// key hash goes into the key cache once the row is committed.
func (s *Store) CreatePlayer(ctx context.Context, rec players.Record) (err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "create player %s", rec.ID)
	s.writing.Lock()
	defer s.writing.Unlock()
	if err := sqlrow.CreatePlayer(s.w.WithContext(ctx), rec); err != nil {
		return err
	}
	s.keys.put(rec)
	return nil
}

// Player returns the player with that id, or players.ErrPlayerNotFound.
func (s *Store) Player(ctx context.Context, id string) (_ players.Record, err error) {
	defer s.read(&err)
	return sqlrow.PlayerWhere(s.r.WithContext(ctx), "id", id)
}

// PlayerByKeyHash returns the player whose key hashes to hash, or players.ErrPlayerNotFound:
// from the key cache when it has the hash, else by the unique index on key_hash, and then the
// cache keeps it. This store is the only writer of its file's players (one process owns a
// SQLite database: docs/design.md, "Several instances"), and its own CreatePlayer and
// RotatePlayerKey keep the cache, so a rotated key is refused from the moment the rotation
// returns, as the store's read of the table would refuse it. A hash that finds no one is not
// remembered: it asks the table each time.
func (s *Store) PlayerByKeyHash(ctx context.Context, hash []byte) (_ players.Record, err error) {
	defer s.read(&err)
	rec, gen, ok := s.keys.get(hash)
	if ok {
		return rec, nil
	}
	if rec, err = sqlrow.PlayerWhere(s.r.WithContext(ctx), "key_hash", hash); err != nil {
		return players.Record{}, err
	}
	s.keys.fill(rec, gen)
	return rec, nil
}

// RotatePlayerKey replaces the key hash of player id with next if it is still prev, and revokes
// the tokens of the player's seats in the same transaction (the referee, which this process
// owns alone, drops its copies of their matches: MatchService.ForgetSeatsOf). Whatever
// the outcome, the player leaves the key cache once the UPDATE is done (or failed), and a
// lookup of the table that began before that is not kept: the next lookup of either hash
// reads the table, which has the rotation from its commit on (WAL).
func (s *Store) RotatePlayerKey(ctx context.Context, id string, prev, next []byte, at time.Time) (_ bool, err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "rotate the key of player %s", id)
	s.writing.Lock()
	defer s.writing.Unlock()
	defer s.keys.forget(id)
	return sqlrow.RotatePlayerKey(s.w.WithContext(ctx), id, prev, next, sqlrow.FormatTime(at), nil)
}

// maxKeys bounds the key cache; past it an arbitrary player is forgotten, which costs that
// player's next request one indexed read.
const maxKeys = 1 << 16

// keyCache is the players this store found or created, by the hash of their current key, so
// that authenticating a key costs what a seat token does: a map lookup, no query
// (api/players_bench_test.go, BenchmarkAuthenticate). gen counts the rotations: a lookup of
// the table fills the cache only if no rotation ended since the lookup began, so a row read
// before a rotation committed can never bring the old hash back. The zero value is empty and
// ready.
type keyCache struct {
	mu     sync.RWMutex
	gen    uint64
	byHash map[string]players.Record
	hashOf map[string]string // player id -> the key hash it is cached under
}

// get returns the cached player of hash, and the generation to fill the cache with if it is
// not there.
func (c *keyCache) get(hash []byte) (players.Record, uint64, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	rec, ok := c.byHash[string(hash)]
	if ok {
		rec.KeyHash = slices.Clone(rec.KeyHash) // the caller's to change
	}
	return rec, c.gen, ok
}

// fill caches rec, read from the table at generation gen, unless a rotation ended since.
func (c *keyCache) fill(rec players.Record, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen == gen {
		c.putLocked(rec)
	}
}

// put caches rec, just committed by this store.
func (c *keyCache) put(rec players.Record) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(rec)
}

func (c *keyCache) putLocked(rec players.Record) {
	if c.byHash == nil {
		c.byHash, c.hashOf = make(map[string]players.Record), make(map[string]string)
	}
	if old, ok := c.hashOf[rec.ID]; ok {
		delete(c.byHash, old)
	} else if len(c.hashOf) >= maxKeys {
		for id, h := range c.hashOf {
			delete(c.byHash, h)
			delete(c.hashOf, id)
			break
		}
	}
	rec.KeyHash = slices.Clone(rec.KeyHash)
	rec.CreatedAt, rec.KeyRotatedAt = rec.CreatedAt.UTC(), rec.KeyRotatedAt.UTC()
	c.byHash[string(rec.KeyHash)], c.hashOf[rec.ID] = rec, string(rec.KeyHash)
}

// forget drops player id from the cache and ends the generation, so that no lookup begun
// before can cache what it read.
func (c *keyCache) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if h, ok := c.hashOf[id]; ok {
		delete(c.byHash, h)
		delete(c.hashOf, id)
	}
}
