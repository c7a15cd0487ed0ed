package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/repository/sqlrow"
)

var _ ratings.KeyStore = (*Store)(nil)

// ServerKey returns the key named name (migration 00011), storing fresh first when there is
// none: read from the read pool when it is there, which is every call but the first, else
// stored on the writer, between the committer's batches.
func (s *Store) ServerKey(ctx context.Context, name string, fresh []byte) (_ []byte, err error) {
	defer s.wrote(&err)
	defer domain.Wrap(&err, "server key %s", name)
	var key []byte
	err = s.r.WithContext(ctx).Raw("SELECT key FROM server_keys WHERE name = ?", name).Row().Scan(&key)
	switch {
	case err == nil:
		return key, nil
	case !errors.Is(err, sql.ErrNoRows):
		return nil, err
	}
	s.writing.Lock()
	defer s.writing.Unlock()
	return sqlrow.ServerKey(s.w.WithContext(ctx), name, fresh, sqlrow.FormatTime(time.Now()))
}
