package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/allfives/allfives/repository/sqlite"
)

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
