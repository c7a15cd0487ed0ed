package api_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/sqlite"
)

// newFileHarness is newHarness with the path of its SQLite file, for tests that change the
// file behind the store's back, and a hook to change the server's config.
func newFileHarness(t testing.TB, cfg func(*api.Config)) (*harness, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "allfives.db")
	store, err := sqlite.Open(context.Background(), path, sqlite.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(7)})
	c := api.Config{Service: svc, Ready: store}
	if cfg != nil {
		cfg(&c)
	}
	return &harness{t: t, e: api.New(c), svc: svc, store: store}, path
}

// jsonOf is v's JSON, for comparing answers decoded into different types.
func jsonOf(t testing.TB, v any) string {
	t.Helper()
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}

func sortedTiles(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// tableSizes are the four kinds of table: 2, 3 and 4 players alone, and 4 in partnerships.
var tableSizes = []struct {
	players      int
	partnerships bool
}{{2, false}, {3, false}, {4, false}, {4, true}}

// botMatch creates a match of bots, which plays to its end inside the create call.
func (h *harness) botMatch(players int, partnerships bool, i int) *table {
	h.t.Helper()
	names := make([]string, players)
	for s := range names {
		names[s] = []string{"greedy", "random"}[(s+i)%2]
	}
	tb := h.create("", partnerships, names...)
	if v := tb.view(-1); v.Status != "finished" {
		h.t.Fatalf("a match of bots is %s after its creation", v.Status)
	}
	return tb
}
