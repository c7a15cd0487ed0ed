package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/referee"
	"github.com/allfives/allfives/repository/sqlite"
)

// runCheck checks a database offline: SQLite's integrity check of the file, then the audit of
// every match (docs/api.md, "Replay, audit and export"), one line per match that fails and a
// summary. Any failure is an error, so the exit status says whether the database holds up.
// Audits run as a spectator: the output shows no hidden tiles of live matches.
func runCheck(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) (err error) {
	f := newEnvFlags("check", getenv, stdout)
	db := f.string("db", "ALLFIVES_DB", sqlite.DefaultPath, "SQLite database file")
	if err := f.parse(args); err != nil {
		return helpOK(err)
	}
	store, err := sqlite.Open(ctx, *db, sqlite.Options{NoMigrate: true})
	if err != nil {
		return err
	}
	defer closeStore(store, &err)
	integrity, err := store.IntegrityCheck(ctx)
	if err != nil {
		return err
	}
	sound := len(integrity) == 1 && integrity[0] == "ok"
	fmt.Fprintf(stdout, "%s: integrity_check: %s\n", *db, strings.Join(integrity, "; "))
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
	fmt.Fprintf(stdout, "%s: %d matches audited, %d ok, %d failed\n", *db, len(ids), len(ids)-failed, failed)
	if !sound || failed > 0 {
		return fmt.Errorf("check %s: %d of %d matches fail their audit; the file's integrity check says %q", *db, failed, len(ids), strings.Join(integrity, "; "))
	}
	return nil
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
