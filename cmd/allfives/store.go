package main

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
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/sqlite"
)

// dbHelp is the help of every --db flag.
const dbHelp = "SQLite database file, or a postgres:// or postgresql:// URL (see docs/operations.md, \"Running several instances\")"

// store is what serve and migrate need of a store, whichever the engine.
type store interface {
	referee.EventStore
	reviews.Store
	players.Store
	ratings.Store
	seeks.Store
	Ping(ctx context.Context) error
	Close() error
	Migrate(ctx context.Context) ([]string, error)
	SchemaVersion(ctx context.Context) (current, known int64, err error)
}

// storeConfig says which database to open and how.
type storeConfig struct {
	db          string        // a PostgreSQL URL, or else a SQLite file
	listenDB    string        // PostgreSQL only: a URL for LISTEN when db's cannot (a pooler's); "" uses db
	sync        string        // SQLite's durability; PostgreSQL's is the server's (synchronous_commit)
	busyTimeout time.Duration // the wait for another writer's lock (SQLite's busy timeout, PostgreSQL's lock_timeout); 0: the store's default
	log         *slog.Logger  // nil: the store logs nothing of its own
	migrate     bool          // run the migrations while opening
}

// openStore opens the database c names.
func openStore(ctx context.Context, c storeConfig) (store, error) {
	if postgres.IsURL(c.db) {
		return postgres.Open(ctx, c.db, postgres.Options{NoMigrate: !c.migrate, LockTimeout: c.busyTimeout, Logger: c.log, ListenURL: c.listenDB})
	}
	return sqlite.Open(ctx, c.db, sqlite.Options{Sync: c.sync, NoMigrate: !c.migrate, BusyTimeout: c.busyTimeout, Logger: c.log})
}

// dbName is db as it may be logged or printed: a URL without its password.
func dbName(db string) string {
	if postgres.IsURL(db) {
		return postgres.Redact(db)
	}
	return db
}

// shareStore wires what a store shared by several instances offers: its pool's figures as
// metrics in reg, and its announcements of other instances' appends, followed by svc until ctx
// ends (docs/design.md, "Several instances"). A store that offers neither is left alone.
func shareStore(ctx context.Context, s store, svc *referee.MatchService, reg *prometheus.Registry, log *slog.Logger) (wait func()) {
	if p, ok := s.(interface{ DB() *sql.DB }); ok {
		reg.MustRegister(collectors.NewDBStatsCollector(p.DB(), "allfives"))
	}
	n, ok := s.(referee.Notifier)
	if !ok {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := svc.Follow(ctx, n); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("following other instances' appends stopped", "err", err)
		}
	}()
	return func() { <-done }
}

// checkSync refuses a SQLite durability that is none of --sync's.
func checkSync(s string) error {
	switch s {
	case "full", "normal", "off":
		return nil
	}
	return fmt.Errorf("sync must be full, normal or off, not %q", s)
}
