package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// item is what the test knows of a stored match, to compute the expected history itself.
type item struct {
	id       string
	at       time.Time
	names    []string
	finished bool
}

// seedHistory stores n matches, created in shuffled order so that insertion order says nothing
// about history order, four to a second so created_at ties are common. Every seventh match is
// played to its end in memory and stored whole, so both statuses occur.
func seedHistory(t *testing.T, s referee.EventStore, n int, base time.Time, prefix string) []item {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	items := make([]item, n)
	for i := range n {
		sum := sha256.Sum256(fmt.Appendf(nil, "%s%d", prefix, i))
		seats := 2 + i%3
		names := make([]string, seats)
		for k := range names {
			names[k] = fmt.Sprintf("p%02d", (i*(k+3)+k*11)%40)
		}
		items[i] = item{id: prefix + hex.EncodeToString(sum[:6]), at: base.Add(time.Duration(i/4) * time.Second), names: names, finished: i%7 == 0}
	}
	rng.Shuffle(n, func(i, j int) { items[i], items[j] = items[j], items[i] })
	for _, it := range items {
		target := 0
		if it.finished {
			target = 5
		}
		f := NewFixture(t, it.id, it.at, target, it.names...)
		for it.finished && !f.Match.Finished() {
			f.Next(t)
		}
		if err := s.Create(ctx, f.Record, f.Events, f.Match.Summary()); err != nil {
			t.Fatal(err)
		}
	}
	return items
}

func expectedOrder(items []item, keep func(item) bool) []string {
	var sel []item
	for _, it := range items {
		if keep(it) {
			sel = append(sel, it)
		}
	}
	slices.SortFunc(sel, func(a, b item) int {
		if c := b.at.Compare(a.at); c != 0 {
			return c
		}
		return strings.Compare(b.id, a.id)
	})
	ids := make([]string, len(sel))
	for i, it := range sel {
		ids[i] = it.id
	}
	return ids
}

// follow pages from q to the end, checking that no match appears twice.
func follow(t *testing.T, s referee.EventStore, q referee.HistoryQuery) []string {
	t.Helper()
	var ids []string
	seen := map[string]bool{}
	for {
		p, err := s.History(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range p.Matches {
			if seen[m.ID] {
				t.Fatalf("match %s listed twice", m.ID)
			}
			seen[m.ID] = true
			ids = append(ids, m.ID)
		}
		if p.NextCursor == "" {
			return ids
		}
		q.Cursor = p.NextCursor
	}
}

// HistoryAtScale: over n matches, every filter and page size lists each match once, in order,
// across pages, and cursors stay put while newer matches arrive. The stores run it with n large
// enough that every query spans several pages.
func HistoryAtScale(t *testing.T, s referee.EventStore, n int) {
	start := time.Now()
	base := Base
	items := seedHistory(t, s, n, base, "x")
	t.Logf("stored %d matches in %v", n, time.Since(start))

	has := func(name string) func(item) bool {
		return func(it item) bool { return slices.Contains(it.names, name) }
	}
	since, until := base.Add(90*time.Second), base.Add(300*time.Second)
	inWindow := func(it item) bool { return !it.at.Before(since) && it.at.Before(until) }
	cases := []struct {
		name string
		q    referee.HistoryQuery
		keep func(item) bool
	}{
		{"all", referee.HistoryQuery{Limit: 100}, func(item) bool { return true }},
		{"all, odd pages", referee.HistoryQuery{Limit: 37}, func(item) bool { return true }},
		{"finished", referee.HistoryQuery{Status: domain.StatusFinished, Limit: 25}, func(it item) bool { return it.finished }},
		{"in progress", referee.HistoryQuery{Status: domain.StatusInProgress, Limit: 100}, func(it item) bool { return !it.finished }},
		{"player", referee.HistoryQuery{Player: "p07", Limit: 10}, has("p07")},
		{"window", referee.HistoryQuery{Since: since, Until: until, Limit: 50}, inWindow},
		{"everything", referee.HistoryQuery{Player: "p13", Status: domain.StatusInProgress, Since: since, Until: until, Limit: 3},
			func(it item) bool { return has("p13")(it) && !it.finished && inWindow(it) }},
	}
	for _, tc := range cases {
		want := expectedOrder(items, tc.keep)
		if len(want) == 0 {
			t.Fatalf("%s: the fixture selects nothing", tc.name)
		}
		t0 := time.Now()
		got := follow(t, s, tc.q)
		t.Logf("%s: %d matches in %v", tc.name, len(got), time.Since(t0))
		if !slices.Equal(got, want) {
			t.Fatalf("%s: got %d matches, want %d, or not in order", tc.name, len(got), len(want))
		}
	}

	// Stable cursors: the rest of the history after a cursor does not move when newer
	// matches arrive, and the same cursor gives the same page.
	q := referee.HistoryQuery{Limit: 100}
	for range 3 {
		p, err := s.History(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		q.Cursor = p.NextCursor
	}
	rest := follow(t, s, q)
	seedHistory(t, s, 40, base.Add(time.Hour), "late")
	if again := follow(t, s, q); !slices.Equal(again, rest) {
		t.Fatalf("the pages after a cursor changed when newer matches arrived")
	}
	if all := follow(t, s, referee.HistoryQuery{Limit: 100}); len(all) != n+40 {
		t.Fatalf("after adding 40 to %d, history lists %d matches", n, len(all))
	}
}
