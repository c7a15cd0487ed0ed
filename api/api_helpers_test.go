package api_test

import (
	"encoding/json"
	"slices"
	"testing"
)

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
