package sqlite_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/repository/sqlite"
	"github.com/allfives/allfives/repository/storetest"
)

// TestReopen: after the file is closed and opened again, every match loads and folds to the
// same state it had, as a whole and as a spectator sees it, with the same chain head.
func TestReopen(t *testing.T) {
	s, path := openStore(t, sqlite.Options{})
	fs := mixedMatches(t, s)
	heads := map[string]string{}
	for _, f := range fs {
		rep, err := s.VerifyChain(ctx, f.Record.ID)
		if err != nil || !rep.OK {
			t.Fatalf("%s before reopen: %+v %v", f.Record.ID, rep, err)
		}
		heads[f.Record.ID] = rep.HeadHash
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s2, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	finished := 0
	for _, f := range fs {
		if checkReloaded(t, s2, f, heads[f.Record.ID]).Finished() {
			finished++
		}
	}
	if finished == 0 {
		t.Fatal("no finished match among the fixtures")
	}
}

// mixedMatches stores nine matches of every table size, some a few moves in, every third
// played to its end.
func mixedMatches(t *testing.T, s *sqlite.Store) []*storetest.Fixture {
	t.Helper()
	tables := [][]string{{"ann", "bob"}, {"ann", "bob", "cy"}, {"ann", "bob", "cy", "dee"}}
	var fs []*storetest.Fixture
	for i := range 9 {
		target, steps := 0, 7*i
		if i%3 == 2 {
			target, steps = 5, 10000 // played to the end
		}
		f := storetest.NewFixture(t, fmt.Sprintf("r-%d", i), storetest.Base.Add(time.Duration(i)*time.Minute), target, tables[i%3]...)
		if err := f.Create(ctx, s); err != nil {
			t.Fatal(err)
		}
		f.PlayToEnd(t, s, steps)
		fs = append(fs, f)
	}
	return fs
}

// checkReloaded loads f's match from s and checks it against the fixture: read model, fold,
// spectator view and chain head. It returns the folded match.
func checkReloaded(t *testing.T, s *sqlite.Store, f *storetest.Fixture, head string) *domain.Match {
	t.Helper()
	id := f.Record.ID
	sm, err := s.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	events, err := s.Events(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := domain.Resume(id, sm.Record.Seed, events)
	if err != nil {
		t.Fatalf("%s does not fold after reopen: %v", id, err)
	}
	storetest.SameSummary(t, m.Summary(), f.Match.Summary())
	storetest.SameSummary(t, sm.Summary, f.Match.Summary())
	if got, want := m.View(domain.Spectator()), f.Match.View(domain.Spectator()); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s spectator view after reopen\n got %+v\nwant %+v", id, got, want)
	}
	rep, err := s.VerifyChain(ctx, id)
	if err != nil || !rep.OK || rep.HeadHash != head {
		t.Fatalf("%s chain after reopen: %+v %v, head was %s", id, rep, err, head)
	}
	return m
}
