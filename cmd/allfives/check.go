package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/sqlite"
)

// checkedStore is what check needs of a store, whichever the engine.
type checkedStore interface {
	referee.EventStore
	MatchIDs(ctx context.Context) ([]string, error)
	Close() error
}

// runCheck checks a database offline: for a SQLite file, SQLite's integrity check of the file;
// then, for either engine, the audit of every match (docs/api-records.md, "Replay, audit and export"),
// one line per match that fails and a summary. PostgreSQL has no file to check: its storage is
// the server's to keep, so a PostgreSQL database gets the audits only, which re-hash every
// chain and re-fold every log against its read model, seats and idempotency records. Any
// failure is an error, so the exit status says whether the database holds up. Audits run as a
// spectator: the output shows no hidden tiles of live matches.
func runCheck(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) (err error) {
	f := newEnvFlags("check", getenv, stdout)
	db := f.string("db", "ALLFIVES_DB", sqlite.DefaultPath, "SQLite database file, or a postgres:// or postgresql:// URL")
	if err := f.parse(args); err != nil {
		return helpOK(err)
	}
	name := dbName(*db)
	store, integrity, err := openChecked(ctx, *db)
	if err != nil {
		return err
	}
	defer closeStore(store, &err)
	sound := integrity == nil || len(integrity) == 1 && integrity[0] == "ok"
	if integrity != nil {
		fmt.Fprintf(stdout, "%s: integrity_check: %s\n", name, strings.Join(integrity, "; "))
	}
	ids, err := store.MatchIDs(ctx)
	if err != nil {
		return err
	}
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store})
	failed := 0
	for _, id := range ids {
		if line, ok := auditLine(ctx, svc, id); !ok {
			failed++
			fmt.Fprintln(stdout, line)
		}
	}
	fmt.Fprintf(stdout, "%s: %s audited, %d ok, %d failed\n", name, count(len(ids), "match", "matches"), len(ids)-failed, failed)
	switch {
	case !sound:
		return fmt.Errorf("check %s: %d of %d matches fail their audit; the file's integrity check says %q", name, failed, len(ids), strings.Join(integrity, "; "))
	case failed > 0:
		return fmt.Errorf("check %s: %d of %d matches fail their audit", name, failed, len(ids))
	}
	return nil
}

// openChecked opens the database db names without migrating it and, for a SQLite file, runs
// its integrity check; integrity is nil for PostgreSQL.
func openChecked(ctx context.Context, db string) (_ checkedStore, integrity []string, err error) {
	if postgres.IsURL(db) {
		s, err := postgres.Open(ctx, db, postgres.Options{NoMigrate: true})
		return s, nil, err
	}
	s, err := sqlite.Open(ctx, db, sqlite.Options{NoMigrate: true})
	if err != nil {
		return nil, nil, err
	}
	if integrity, err = s.IntegrityCheck(ctx); err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, integrity, nil
}

// auditLine audits match id and, when it fails, words the first failing check in one line.
func auditLine(ctx context.Context, svc *referee.MatchService, id string) (string, bool) {
	rep, err := svc.Audit(ctx, id, domain.Spectator())
	if err != nil {
		return fmt.Sprintf("%s: FAILED: the audit could not run: %v", id, err), false
	}
	if rep.OK {
		return "", true
	}
	for _, c := range rep.Checks {
		if !c.OK {
			return fmt.Sprintf("%s: FAILED %s: %s", id, c.Name, c.Detail), false
		}
	}
	return fmt.Sprintf("%s: FAILED", id), false
}
