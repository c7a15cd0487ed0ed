package api_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/sqlite"
)

// playerStore is what a server with players needs of its store.
type playerStore interface {
	referee.EventStore
	players.Store
	api.Pinger
}

// engines open a fresh store of each kind the server runs on, closed when t ends.
var engines = []struct {
	name string
	open func(t testing.TB) playerStore
}{
	{"sqlite", func(t testing.TB) playerStore {
		s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "allfives.db"), sqlite.Options{Sync: "normal"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}},
	{"postgres", func(t testing.TB) playerStore { return openPostgres(t, pgtest.URL(t)) }},
}

// openPostgres opens a store on the database at url, closed when t ends.
func openPostgres(t testing.TB, url string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url, postgres.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newPlayer creates a player named name and returns the answer.
func (h *harness) newPlayer(name string) api.CreatePlayerResponse {
	h.t.Helper()
	r := h.do("POST", "/api/v1/players", api.CreatePlayerRequest{Name: name})
	if r.status != 201 {
		h.t.Fatalf("create player %q: %d %s", name, r.status, r.body)
	}
	var out api.CreatePlayerResponse
	r.decode(h.t, &out)
	return out
}
