package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/allfives/allfives/cmd/allfives/internal/server"
	"github.com/allfives/allfives/repository/sqlite"
)

// dbHelp is the help of every --db flag.
const dbHelp = "SQLite database file, or a postgres:// or postgresql:// URL (see docs/operations.md, \"Running several instances\")"

// store is what the database commands need of a store, whichever the engine: the server's.
type store = server.Store

// storeConfig says which database a command opens and how (server.StoreConfig).
type storeConfig struct {
	db      string // a PostgreSQL URL, or else a SQLite file
	migrate bool   // run the migrations while opening
}

// openStore opens the database c names, as serve does.
func openStore(ctx context.Context, c storeConfig) (store, error) {
	return server.OpenStore(ctx, server.StoreConfig{DB: c.db, Migrate: c.migrate})
}

// dbName is db as it may be logged or printed: a URL without its password.
func dbName(db string) string { return server.DBName(db) }

// checkSync refuses a SQLite durability that is none of --sync's.
func checkSync(s string) error { return server.CheckSync(s) }

// closeStore closes the database for a deferred call, adding a failure to close (the last
// WAL checkpoint, which a full disk can refuse) to the command's error.
func closeStore(s interface{ Close() error }, errp *error) {
	if err := s.Close(); err != nil {
		*errp = errors.Join(*errp, fmt.Errorf("close database: %w", err))
	}
}

// runMigrate applies the pending migrations and says what it did. serve migrates at start-up
// too; this is for deployments that migrate in a separate step.
func runMigrate(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) (err error) {
	f := newEnvFlags("migrate", getenv, stdout)
	db := f.string("db", "ALLFIVES_DB", sqlite.DefaultPath, dbHelp)
	if err := f.parse(args); err != nil {
		return helpOK(err)
	}
	store, err := openStore(ctx, storeConfig{db: *db})
	if err != nil {
		return err
	}
	defer closeStore(store, &err)
	applied, err := store.Migrate(ctx)
	if err != nil {
		return err
	}
	current, _, err := store.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if len(applied) == 0 {
		_, err = fmt.Fprintf(stdout, "%s: schema at version %d, nothing to apply\n", dbName(*db), current)
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s: applied %s; schema at version %d\n", dbName(*db), strings.Join(applied, ", "), current)
	return err
}
