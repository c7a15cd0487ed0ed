package sqlite

import (
	"context"

	"github.com/pressly/goose/v3"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/migrations"
	"github.com/allfives/allfives/repository/sqlrow"
)

// Migrate applies every migration in package migrations that the database has not seen, in
// order, and returns the file names it applied (none when the schema is current, so running it
// twice is a no-op). Open calls it unless Options.NoMigrate; `allfives migrate` calls it to
// report. Then it does what the migrations leave to Go (sqlrow.AfterMigrate: the name
// skeletons of players that have none).
//
// goose runs on the writer's *sql.DB, the one GORM opened: the glebarez driver is registered as
// "sqlite" and a second SQLite driver in the binary would panic on registration. With the
// writer's single connection and BEGIN IMMEDIATE, a migration cannot interleave with an append.
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
	return applied, sqlrow.AfterMigrate(ctx, s.w, s.log)
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
	sqlDB, err := s.w.DB()
	if err != nil {
		return nil, err
	}
	return goose.NewProvider(goose.DialectSQLite3, sqlDB, migrations.SQLite)
}
