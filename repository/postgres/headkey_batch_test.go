package postgres

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"sync"
	"testing"

	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/repository/storetest"
)

// TestHeadBatchMixesKeys: on PostgreSQL, many readers at once ask heads alone (a token's
// read), heads with a current key (a keyed read), heads with a key no player has, and heads of
// a match that does not exist, one query at a time so that they share queries. Each gets its
// own answer: its match's version and its key's player, or none; and some queries answered
// ids and keys of several readers at once.
func TestHeadBatchMixesKeys(t *testing.T) {
	ctx := context.Background()
	s := openFresh(t, Options{MaxConns: 4})
	const matches, people = 3, 3
	for i := range matches {
		f := storetest.NewFixture(t, fmt.Sprint("m", i), storetest.Base, 0)
		if err := f.Create(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	var recs []players.Record
	for i := range people {
		rec := storetest.NewPlayer(t, fmt.Sprint("P", i), storetest.Base)
		if err := s.CreatePlayer(ctx, rec); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	want, err := s.Head(ctx, "m0")
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	mixed := 0 // queries that answered several ids and several keys
	s.heads.limit = 1
	s.heads.query = func(ctx context.Context, db *sql.DB, g *headGroup) error {
		mu.Lock()
		if len(g.ids) > 1 && len(g.hashes) > 1 {
			mixed++
		}
		mu.Unlock()
		return queryHeads(ctx, db, g)
	}

	var wg sync.WaitGroup
	for r := range 16 {
		wg.Go(func() {
			for n := range 150 {
				id := fmt.Sprint("m", (r+n)%matches)
				if n%7 == 0 {
					id = "missing"
				}
				wantVersion := want
				if id == "missing" {
					wantVersion = -1
				}
				switch (r + n) % 3 {
				case 0: // a token's read: the head alone
					v, err := s.Head(ctx, id)
					if id == "missing" {
						if err == nil {
							t.Errorf("head of a missing match: %d", v)
						}
						continue
					}
					if err != nil || v != want {
						t.Errorf("head of %s: %d %v, want %d", id, v, err, want)
					}
				case 1: // a keyed read
					rec := recs[(r+n)%people]
					v, p, err := s.HeadAndKey(ctx, id, rec.KeyHash)
					if err != nil || v != wantVersion || p.ID != rec.ID || string(p.KeyHash) != string(rec.KeyHash) {
						t.Errorf("head and key of %s for %s: %d %+v %v", id, rec.ID, v, p, err)
					}
				default: // a key no player has
					unknown := make([]byte, 32)
					_, _ = rand.Read(unknown)
					v, p, err := s.HeadAndKey(ctx, id, unknown)
					if err != nil || v != wantVersion || p.ID != "" {
						t.Errorf("head and unknown key of %s: %d %+v %v", id, v, p, err)
					}
				}
			}
		})
	}
	wg.Wait()
	if mixed == 0 {
		t.Error("no query answered several ids and keys at once: the batch was not exercised")
	}
	t.Logf("%d queries answered several ids and keys", mixed)
}
