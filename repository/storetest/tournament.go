package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/tournament"
)

// RunTournaments is the contract of tournaments.Store: open returns a fresh, empty store.
func RunTournaments(t *testing.T, open func(t *testing.T) tournaments.Store) {
	t.Run("LogRoundTrips", func(t *testing.T) { tournamentRoundTrip(t, open(t)) })
	t.Run("AppendChecksVersionAndHead", func(t *testing.T) { tournamentConflicts(t, open(t)) })
	t.Run("SealsAndLists", func(t *testing.T) { tournamentSeals(t, open(t)) })
}

var tournamentAt = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// tournamentLinks chains n events after the links before.
func tournamentLinks(t *testing.T, before []tournament.Link, n int) []tournament.Link {
	t.Helper()
	head := ""
	if len(before) > 0 {
		head = before[len(before)-1].Hash
	}
	var evs []tournament.Event
	for i := range n {
		seq := len(before) + i + 1
		typ := tournament.TypeEntered
		var data any = tournament.Entrant{Player: fmt.Sprintf("p%d", seq), Name: fmt.Sprintf("P%d", seq)}
		if seq == 1 {
			typ, data = tournament.TypeCreated, tournament.Created{Spec: tournament.Spec{Name: "cup", Format: tournament.Format2P, System: tournament.Swiss, Rounds: 1}, Organiser: "org"}
		}
		e, err := tournament.NewEvent(seq, typ, tournamentAt.Add(time.Duration(seq)*time.Second), data)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	links, err := tournament.Chain(head, evs)
	if err != nil {
		t.Fatal(err)
	}
	return links
}

func tournamentRow(id string, links []tournament.Link, status tournament.Status) tournaments.Row {
	last := links[len(links)-1]
	return tournaments.Row{ID: id, Name: "cup", Status: status, Organiser: "org", CreatedAt: tournamentAt, UpdatedAt: last.At, Version: last.Seq, HeadHash: last.Hash}
}

func tournamentRoundTrip(t *testing.T, st tournaments.Store) {
	ctx := context.Background()
	links := tournamentLinks(t, nil, 3)
	start := tournamentAt.Add(time.Hour)
	row := tournamentRow("t1", links, tournament.Upcoming)
	row.StartsAt = &start
	if err := st.CreateTournament(ctx, row, links); err != nil {
		t.Fatal(err)
	}
	gotRow, got, err := st.Tournament(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, links) || !reflect.DeepEqual(gotRow, row) {
		t.Fatalf("read back\n %+v\n %+v\nwant\n %+v\n %+v", gotRow, got, row, links)
	}
	if bad, detail := tournament.VerifyChain(got); bad != 0 {
		t.Fatalf("chain: %d %s", bad, detail)
	}
	if _, _, err := st.Tournament(ctx, "none"); !errors.Is(err, tournaments.ErrNotFound) {
		t.Fatalf("missing tournament: %v", err)
	}
	if err := st.CreateTournament(ctx, row, links); !errors.Is(err, tournaments.ErrConflict) {
		t.Fatalf("second create: %v", err)
	}
}

func tournamentConflicts(t *testing.T, st tournaments.Store) {
	ctx := context.Background()
	links := tournamentLinks(t, nil, 1)
	if err := st.CreateTournament(ctx, tournamentRow("t1", links, tournament.Upcoming), links); err != nil {
		t.Fatal(err)
	}
	more := tournamentLinks(t, links, 1)
	all := append(append([]tournament.Link(nil), links...), more...)
	if err := st.AppendTournament(ctx, tournaments.Append{ID: "t1", Expected: 0, Links: more, Row: tournamentRow("t1", all, tournament.Upcoming)}); !errors.Is(err, tournaments.ErrConflict) {
		t.Fatalf("append at a wrong version: %v", err)
	}
	// At the right version but chained after another head (a stale read of the row's head
	// hash): refused, so the chain cannot break.
	stale := tournamentLinks(t, []tournament.Link{{Event: links[0].Event, Hash: strings.Repeat("ab", 32)}}, 1)
	if err := st.AppendTournament(ctx, tournaments.Append{ID: "t1", Expected: 1, Links: stale, Row: tournamentRow("t1", append(append([]tournament.Link(nil), links...), stale...), tournament.Upcoming)}); !errors.Is(err, tournaments.ErrConflict) {
		t.Fatalf("append after another head: %v", err)
	}
	// Racing appends at one version: exactly one wins, the others conflict.
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = st.AppendTournament(ctx, tournaments.Append{ID: "t1", Expected: 1, Links: more, Row: tournamentRow("t1", all, tournament.Upcoming)})
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, tournaments.ErrConflict):
			t.Fatalf("racing append: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d racing appends won, want 1", won)
	}
	row, got, err := st.Tournament(ctx, "t1")
	if err != nil || row.Version != 2 || len(got) != 2 {
		t.Fatalf("after the race: version %d, %d links, %v", row.Version, len(got), err)
	}
}

func tournamentSeals(t *testing.T, st tournaments.Store) {
	ctx := context.Background()
	for i, status := range []tournament.Status{tournament.Upcoming, tournament.Running, tournament.Finished} {
		links := tournamentLinks(t, nil, 1)
		row := tournamentRow(fmt.Sprintf("t%d", i), links, tournament.Upcoming)
		row.CreatedAt = tournamentAt.Add(time.Duration(i) * time.Minute)
		if err := st.CreateTournament(ctx, row, links); err != nil {
			t.Fatal(err)
		}
		if status == tournament.Upcoming {
			continue
		}
		more := tournamentLinks(t, links, 1)
		next := row
		next.Status, next.Version, next.HeadHash = status, 2, more[0].Hash
		a := tournaments.Append{ID: row.ID, Expected: 1, Links: more, Row: next}
		if status == tournament.Running {
			a.Seal = &tournaments.Seal{Commitment: "c1", Round: 1, Seed: make([]byte, 32)}
		}
		if err := st.AppendTournament(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if sealed, err := st.SealedCommitment(ctx, "c1"); err != nil || !sealed {
		t.Fatalf("sealed c1: %v %v", sealed, err)
	}
	if sealed, err := st.SealedCommitment(ctx, "c2"); err != nil || sealed {
		t.Fatalf("sealed c2: %v %v", sealed, err)
	}
	if seed, err := st.RoundSeed(ctx, "t1", 1); err != nil || len(seed) != 32 {
		t.Fatalf("seed: %x %v", seed, err)
	}
	if _, err := st.RoundSeed(ctx, "t1", 2); !errors.Is(err, tournaments.ErrNotFound) {
		t.Fatalf("missing seed: %v", err)
	}
	_, links, _ := st.Tournament(ctx, "t1")
	more := tournamentLinks(t, links, 1)
	row := tournamentRow("t1", append(links, more...), tournament.Running)
	if err := st.AppendTournament(ctx, tournaments.Append{ID: "t1", Expected: 2, Links: more, Row: row, Reveal: "c1"}); err != nil {
		t.Fatal(err)
	}
	if sealed, _ := st.SealedCommitment(ctx, "c1"); sealed {
		t.Fatal("c1 still sealed after its reveal")
	}
	rows, err := st.Tournaments(ctx, []tournament.Status{tournament.Upcoming, tournament.Running}, 10)
	if err != nil || len(rows) != 2 || rows[0].ID != "t1" || rows[1].ID != "t0" {
		t.Fatalf("list: %+v %v", rows, err)
	}
	if all, _ := st.Tournaments(ctx, nil, 10); len(all) != 3 {
		t.Fatalf("list all: %d", len(all))
	}
	if n, err := st.Organising(ctx, "org"); err != nil || n != 2 {
		t.Fatalf("organising %d %v", n, err)
	}
	if due, err := st.DueTournaments(ctx, tournamentAt); err != nil || len(due) != 1 || due[0] != "t1" {
		t.Fatalf("due %v %v", due, err)
	}
}
