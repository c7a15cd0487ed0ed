package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/repository/sqlite"
)

// runRatings recomputes every rating from the match logs alone (docs/ratings.md, "The
// projection"): the rated matches that ended, in the order they ended, each rated as the
// live projection rates it. --check compares the result with the live table and fails on the
// first figure that differs; --rebuild also puts it in place of the table, in one transaction
// under the projection's lock (a running server's projection goes on from it).
func runRatings(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) (err error) {
	f := newEnvFlags("ratings", getenv, stdout)
	db := f.string("db", "ALLFIVES_DB", sqlite.DefaultPath, dbHelp)
	rebuild := f.fs.Bool("rebuild", false, "recompute every rating from the logs and replace the live table with it")
	check := f.fs.Bool("check", false, "rate what is still queued, then recompute every rating from the logs and compare with the live table")
	if err := f.parse(args); err != nil {
		return helpOK(err)
	}
	if *rebuild == *check {
		return errors.New("ratings: give one of --rebuild or --check")
	}
	store, err := openStore(ctx, storeConfig{db: *db, migrate: *rebuild})
	if err != nil {
		return err
	}
	defer closeStore(store, &err)
	proj := ratings.NewProjector(ratings.Config{Store: store, Logs: store})
	if *check {
		// What the live projection has yet to rate is rated first, or the two would differ
		// by the matches that ended just now.
		if _, err := proj.Drain(ctx); err != nil {
			return err
		}
	}
	got, err := proj.Rebuild(ctx)
	if err != nil {
		return err
	}
	rated := map[string]bool{}
	for _, c := range got.Changes {
		rated[c.MatchID] = true
	}
	fmt.Fprintf(stdout, "%s: %s from the logs: %s rated, %s of a player in a format\n", dbName(*db),
		count(len(got.Done), "rated match ended", "rated matches ended"), count(len(rated), "match", "matches"), count(len(got.Standings), "rating", "ratings"))
	if *rebuild {
		if err := proj.Replace(ctx, got); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "the live table now holds the rebuild")
		return nil
	}
	if err := compareRatings(ctx, store, got); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "the live table equals the rebuild, figure for figure")
	return nil
}

// compareRatings says where the live table of store first differs from a rebuild.
func compareRatings(ctx context.Context, store ratings.Store, got ratings.Rebuilt) error {
	live, err := store.AllStandings(ctx)
	if err != nil {
		return err
	}
	if !slices.Equal(live, got.Standings) {
		for i := range min(len(live), len(got.Standings)) {
			if live[i] != got.Standings[i] {
				return fmt.Errorf("ratings: the live table has %+v where the logs give %+v", live[i], got.Standings[i])
			}
		}
		return fmt.Errorf("ratings: the live table has %d ratings, the logs give %d", len(live), len(got.Standings))
	}
	changes, err := store.AllChanges(ctx)
	if err != nil {
		return err
	}
	if len(changes) != len(got.Changes) {
		return fmt.Errorf("ratings: the live table has %d rating changes, the logs give %d", len(changes), len(got.Changes))
	}
	for i, c := range changes {
		w := got.Changes[i]
		if !c.EndedAt.Equal(w.EndedAt) || c.MatchID != w.MatchID || c.Player != w.Player || c.Format != w.Format ||
			c.Seat != w.Seat || c.Won != w.Won || c.Before != w.Before || c.After != w.After || c.AgainstEstablished != w.AgainstEstablished {
			return fmt.Errorf("ratings: the live table has the change %+v where the logs give %+v", c, w)
		}
	}
	return nil
}
