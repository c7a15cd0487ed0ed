package postgres

import (
	"context"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/migrations"
	"github.com/allfives/allfives/repository/sqlrow"
)

// migrationLockID is the key of the advisory lock goose holds while it migrates, so that
// instances starting together migrate one at a time: the first applies, the others find
// nothing left to do.
const migrationLockID = 0x616c6c6669766573 // "allfives"

// Migrate applies every migration in migrations/postgres that the database has not seen, in
// order, and returns the file names it applied (none when the schema is current, so running it
// twice is a no-op). Open calls it unless Options.NoMigrate; `allfives migrate` calls it to
// report. Then it does what the migrations leave to Go (sqlrow.AfterMigrate: the name
// skeletons of players that have none). Each migration runs in its own transaction, under a session advisory lock.
func (s *Store) Migrate(ctx context.Context) (_ []string, err error) {
	defer domain.Wrap(&err, "migrate")
	p, err := s.migrator()
	if err != nil {
		return nil, err
	}
	applied, err := sqlrow.Migrate(ctx, p)
	if err != nil {
		return nil, err
	}
	return applied, sqlrow.AfterMigrate(ctx, s.db, s.log)
}

// SchemaVersion returns the version of the newest migration applied to the database and of the
// newest one this binary knows; they differ when migrations are pending.
func (s *Store) SchemaVersion(ctx context.Context) (current, known int64, err error) {
	defer domain.Wrap(&err, "schema version")
	p, err := s.migrator()
	if err != nil {
		return 0, 0, err
	}
	return p.GetVersions(ctx)
}

func (s *Store) migrator() (*goose.Provider, error) {
	// Another instance's migration takes well under a second: look again every second, for
	// up to five minutes, rather than goose's default five seconds.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(migrationLockID), lock.WithLockTimeout(1, 300))
	if err != nil {
		return nil, err
	}
	db := s.sqlDB
	if s.direct != nil {
		db = s.direct
	}
	return goose.NewProvider(goose.DialectPostgres, db, migrations.Postgres, goose.WithSessionLocker(locker))
}
