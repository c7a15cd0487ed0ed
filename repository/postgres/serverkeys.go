package postgres

import (
	"context"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/repository/sqlrow"
)

var _ ratings.KeyStore = (*Store)(nil)

// ServerKey returns the key named name (migration 00011), storing fresh first when there is
// none: of instances racing to store one, the first insert wins and every one reads it back,
// so all of them sign and check with one key.
func (s *Store) ServerKey(ctx context.Context, name string, fresh []byte) (_ []byte, err error) {
	defer classify(&err)
	defer domain.Wrap(&err, "server key %s", name)
	return sqlrow.ServerKey(s.db.WithContext(ctx), name, fresh, sqlrow.FormatTime(time.Now()))
}
