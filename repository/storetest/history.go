package storetest

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// historySet creates n matches spread over time, three to a minute so that ties on
// created_at must be broken by id. Every fourth match is played to its end (target 5), so
// both statuses occur. Names rotate so the player filter has near misses ("Ann", "anna").
func historySet(t *testing.T, s referee.EventStore, n int) []*Fixture {
	t.Helper()
	names := [][]string{{"ann", "bob"}, {"cy", "Ann"}, {"anna", "dee", "bob"}, {"eve", "ann", "cy", "dee"}}
	out := make([]*Fixture, n)
	for i := range n {
		target := 0
		if i%4 == 0 {
			target = 5
		}
		// Ids do not follow time order, so the id tie-break is really tested.
		id := fmt.Sprintf("h-%03d", (i*7)%n)
		f := NewFixture(t, id, at(time.Duration(i/3)*time.Minute), target, names[i%len(names)]...)
		mustCreate(t, s, f)
		if target == 5 {
			f.PlayToEnd(t, s, 5000)
		} else if i%3 == 0 {
			f.PlayToEnd(t, s, 3)
		}
		out[i] = f
	}
	return out
}

// newestFirst returns the ids of fs that pass keep, in history order.
func newestFirst(fs []*Fixture, keep func(*Fixture) bool) []string {
	var sel []*Fixture
	for _, f := range fs {
		if keep(f) {
			sel = append(sel, f)
		}
	}
	slices.SortFunc(sel, func(a, b *Fixture) int {
		if c := b.Record.CreatedAt.Compare(a.Record.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(b.Record.ID, a.Record.ID)
	})
	ids := make([]string, len(sel))
	for i, f := range sel {
		ids[i] = f.Record.ID
	}
	return ids
}

// pageAll follows cursors from q to the end and checks each page: at most q.Limit items, a
// cursor on every page but the last, and every item's read model as stored.
func pageAll(t *testing.T, s referee.EventStore, q referee.HistoryQuery, byID map[string]*Fixture) []string {
	t.Helper()
	var ids []string
	for pages := 0; ; pages++ {
		if pages > 10000 {
			t.Fatal("history paging does not end")
		}
		p, err := s.History(ctx, q)
		if err != nil {
			t.Fatalf("history %+v: %v", q, err)
		}
		if q.Limit > 0 && len(p.Matches) > q.Limit {
			t.Fatalf("page of %d items, limit %d", len(p.Matches), q.Limit)
		}
		for _, it := range p.Matches {
			f := byID[it.ID]
			if f == nil {
				t.Fatalf("history returned unknown match %q", it.ID)
			}
			if !it.CreatedAt.Equal(f.Record.CreatedAt) || it.CreatedAt.Location() != time.UTC {
				t.Fatalf("%s: created_at %v, want %v in UTC", it.ID, it.CreatedAt, f.Record.CreatedAt)
			}
			SameSummary(t, it.Summary, f.Match.Summary())
			ids = append(ids, it.ID)
		}
		if p.NextCursor == "" {
			return ids
		}
		if len(p.Matches) == 0 {
			t.Fatal("an empty page with a next cursor")
		}
		q.Cursor = p.NextCursor
	}
}

func index(fs []*Fixture) map[string]*Fixture {
	m := make(map[string]*Fixture, len(fs))
	for _, f := range fs {
		m[f.Record.ID] = f
	}
	return m
}

func testHistoryPaging(t *testing.T, s referee.EventStore) {
	fs := historySet(t, s, 40)
	all := newestFirst(fs, func(*Fixture) bool { return true })
	for _, limit := range []int{1, 7, 40, 100} {
		got := pageAll(t, s, referee.HistoryQuery{Limit: limit}, index(fs))
		if !slices.Equal(got, all) {
			t.Fatalf("limit %d: got\n%v\nwant\n%v", limit, got, all)
		}
	}
	// A page exactly as long as what is left says there is nothing more.
	p, err := s.History(ctx, referee.HistoryQuery{Limit: 40})
	if err != nil || len(p.Matches) != 40 || p.NextCursor != "" {
		t.Fatalf("one full page: %d items, cursor %q, err %v", len(p.Matches), p.NextCursor, err)
	}
	// Limit 0 means the store's default page, which is not empty.
	if p, err := s.History(ctx, referee.HistoryQuery{}); err != nil || len(p.Matches) == 0 {
		t.Fatalf("default limit: %d items, err %v", len(p.Matches), err)
	}
}

func testHistoryFilters(t *testing.T, s referee.EventStore) {
	fs := historySet(t, s, 40)
	byID := index(fs)
	hasPlayer := func(name string) func(*Fixture) bool {
		return func(f *Fixture) bool {
			return slices.ContainsFunc(f.Record.Seats, func(s referee.SeatRecord) bool { return s.Name == name })
		}
	}
	since, until := at(3*time.Minute), at(8*time.Minute)
	cases := []struct {
		name string
		q    referee.HistoryQuery
		keep func(*Fixture) bool
	}{
		{"finished", referee.HistoryQuery{Status: domain.StatusFinished},
			func(f *Fixture) bool { return f.Match.Finished() }},
		{"in progress", referee.HistoryQuery{Status: domain.StatusInProgress},
			func(f *Fixture) bool { return !f.Match.Finished() }},
		{"player ann", referee.HistoryQuery{Player: "ann"}, hasPlayer("ann")},
		{"player Ann", referee.HistoryQuery{Player: "Ann"}, hasPlayer("Ann")},
		{"player nobody", referee.HistoryQuery{Player: "an"}, hasPlayer("an")},
		{"since", referee.HistoryQuery{Since: since},
			func(f *Fixture) bool { return !f.Record.CreatedAt.Before(since) }},
		{"until", referee.HistoryQuery{Until: until},
			func(f *Fixture) bool { return f.Record.CreatedAt.Before(until) }},
		{"since and until, not in UTC", referee.HistoryQuery{Since: since.In(time.FixedZone("X", -7200)), Until: until.In(time.FixedZone("Y", 3600))},
			func(f *Fixture) bool { return !f.Record.CreatedAt.Before(since) && f.Record.CreatedAt.Before(until) }},
		{"all filters", referee.HistoryQuery{Status: domain.StatusInProgress, Player: "bob", Since: since, Until: until},
			func(f *Fixture) bool {
				return !f.Match.Finished() && hasPlayer("bob")(f) && !f.Record.CreatedAt.Before(since) && f.Record.CreatedAt.Before(until)
			}},
	}
	for _, tc := range cases {
		want := newestFirst(fs, tc.keep)
		tc.q.Limit = 4
		if got := pageAll(t, s, tc.q, byID); !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, want)
		}
	}
	// The filters are real: a few cases must select a strict, non-empty subset.
	if n := len(newestFirst(fs, hasPlayer("ann"))); n == 0 || n == len(fs) {
		t.Fatalf("fixture set is degenerate: %d of %d matches have ann", n, len(fs))
	}
	if n := len(newestFirst(fs, func(f *Fixture) bool { return f.Match.Finished() })); n == 0 || n == len(fs) {
		t.Fatalf("fixture set is degenerate: %d of %d matches finished", n, len(fs))
	}
}

// testHistoryStableCursor: a cursor names a place in the order, not an offset, so matches
// created after it was issued do not shift the pages that follow it.
func testHistoryStableCursor(t *testing.T, s referee.EventStore) {
	fs := historySet(t, s, 20)
	first, err := s.History(ctx, referee.HistoryQuery{Limit: 5})
	if err != nil || first.NextCursor == "" {
		t.Fatalf("first page: cursor %q err %v", first.NextCursor, err)
	}
	q := referee.HistoryQuery{Limit: 5, Cursor: first.NextCursor}
	before, err := s.History(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		mustCreate(t, s, NewFixture(t, fmt.Sprintf("late-%d", i), at(time.Hour+time.Duration(i)), 0))
	}
	after, err := s.History(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(p referee.HistoryPage) []string {
		var out []string
		for _, it := range p.Matches {
			out = append(out, it.ID)
		}
		return out
	}
	if !slices.Equal(ids(before), ids(after)) || before.NextCursor != after.NextCursor {
		t.Fatalf("page after the cursor moved: %v then %v", ids(before), ids(after))
	}
	want := newestFirst(fs, func(*Fixture) bool { return true })[5:10]
	if !slices.Equal(ids(after), want) {
		t.Fatalf("second page %v, want %v", ids(after), want)
	}
}

func testHistoryBadCursor(t *testing.T, s referee.EventStore) {
	historySet(t, s, 3)
	enc := base64.RawURLEncoding.EncodeToString
	for _, c := range []string{"!!!", "not a cursor", enc([]byte("garbage")), enc([]byte("v1|yesterday|h-001")), enc([]byte("v9|2025-01-01T00:00:00.000000000Z|x"))} {
		_, err := s.History(ctx, referee.HistoryQuery{Cursor: c})
		if !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("cursor %q: got %v, want ErrInvalid", c, err)
		}
	}
}
