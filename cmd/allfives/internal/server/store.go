package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/sqlite"
)

// Store is what the server and the database commands (migrate, check, ratings, replay) need
// of a store, whichever the engine.
type Store interface {
	referee.EventStore
	reviews.Store
	players.Store
	ratings.Store
	seeks.Store
	puzzles.Store
	Ping(ctx context.Context) error
	Close() error
	Migrate(ctx context.Context) ([]string, error)
	SchemaVersion(ctx context.Context) (current, known int64, err error)
}

// StoreConfig says which database to open and how.
type StoreConfig struct {
	DB          string        // a PostgreSQL URL, or else a SQLite file
	ListenDB    string        // PostgreSQL only: a URL for LISTEN when DB's cannot (a pooler's); "" uses DB
	Sync        string        // SQLite's durability; PostgreSQL's is the server's (synchronous_commit)
	BusyTimeout time.Duration // the wait for another writer's lock (SQLite's busy timeout, PostgreSQL's lock_timeout); 0: the store's default
	Log         *slog.Logger  // nil: the store logs nothing of its own
	Migrate     bool          // run the migrations while opening
}

// OpenStore opens the database c names.
func OpenStore(ctx context.Context, c StoreConfig) (Store, error) {
	if postgres.IsURL(c.DB) {
		return postgres.Open(ctx, c.DB, postgres.Options{NoMigrate: !c.Migrate, LockTimeout: c.BusyTimeout, Logger: c.Log, ListenURL: c.ListenDB})
	}
	return sqlite.Open(ctx, c.DB, sqlite.Options{Sync: c.Sync, NoMigrate: !c.Migrate, BusyTimeout: c.BusyTimeout, Logger: c.Log})
}

// DBName is db as it may be logged or printed: a URL without its password.
func DBName(db string) string {
	if postgres.IsURL(db) {
		return postgres.Redact(db)
	}
	return db
}

// CheckSync refuses a SQLite durability that is none of --sync's.
func CheckSync(s string) error {
	switch s {
	case "full", "normal", "off":
		return nil
	}
	return fmt.Errorf("sync must be full, normal or off, not %q", s)
}

// shareStore wires what a store shared by several instances offers: its pool's figures as
// metrics in reg, and its announcements of other instances' appends, followed by svc until the
// returned stop is called (docs/design.md, "Several instances"). A store that offers neither
// is left alone.
func shareStore(s Store, svc *referee.MatchService, reg *prometheus.Registry, log *slog.Logger) (stop func()) {
	if p, ok := s.(interface{ DB() *sql.DB }); ok {
		reg.MustRegister(collectors.NewDBStatsCollector(p.DB(), "allfives"))
	}
	n, ok := s.(referee.Notifier)
	if !ok {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := svc.Follow(ctx, n); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("following other instances' appends stopped", "err", err)
		}
	}()
	return func() { cancel(); <-done }
}
