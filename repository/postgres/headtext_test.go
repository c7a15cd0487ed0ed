package postgres_test

import (
	"crypto/sha256"
	"errors"
	"sync"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/repository/postgres"
)

// TestHeadCheckOfBytesThatAreNotText: PostgreSQL refuses a text parameter that is not UTF-8
// (or holds a NUL) for the whole statement, and concurrent head checks share statements. So
// such an id, asked alone or with a key, is a missing match without a query, and the honest
// checks running beside it, with and without keys, are all answered.
func TestHeadCheckOfBytesThatAreNotText(t *testing.T) {
	s, _ := openStore(t, postgres.Options{MaxConns: 4})
	people := keyInstanceOn(s)
	id, key, _ := keyedMatch(t, people, people)
	hash := sha256.Sum256([]byte(key))
	var wg sync.WaitGroup
	for r := range 8 {
		wg.Go(func() {
			for n := range 200 {
				if r%2 == 0 {
					bad := []string{"\xff", "m\x00", "\xc3"}[n%3]
					if v, _, err := s.HeadAndKey(ctx, bad, hash[:]); err != nil || v != -1 {
						t.Errorf("HeadAndKey(%q) = %d, %v; want -1 (no such match), no error", bad, v, err)
						return
					}
					if _, err := s.Head(ctx, bad); !errors.Is(err, domain.ErrMatchNotFound) {
						t.Errorf("Head(%q): %v, want ErrMatchNotFound", bad, err)
						return
					}
					continue
				}
				if v, rec, err := s.HeadAndKey(ctx, id, hash[:]); err != nil || v < 1 || rec.ID == "" {
					t.Errorf("an honest keyed check beside them: %d %q %v", v, rec.ID, err)
					return
				}
				if _, err := s.Head(ctx, id); err != nil {
					t.Errorf("an honest check beside them: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
}
