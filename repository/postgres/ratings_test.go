package postgres_test

import (
	"net/url"
	"testing"

	"github.com/allfives/allfives/repository/postgres"
	"github.com/allfives/allfives/repository/postgres/pgtest"
	"github.com/allfives/allfives/repository/storetest"
)

// instances are stores on one new database, as instances of the server would be: Open opens
// another by name (its sessions named after it), Kill terminates its sessions, as a crash
// would end them, and its advisory locks with them.
func instances(t *testing.T) storetest.RatingsInstances {
	base := pgtest.URL(t)
	return storetest.RatingsInstances{
		Open: func(t *testing.T, name string) storetest.RatingsStore {
			u, err := url.Parse(base)
			if err != nil {
				t.Fatal(err)
			}
			q := u.Query()
			q.Set("application_name", "allfives_rater_"+name)
			u.RawQuery = q.Encode()
			s, err := postgres.Open(ctx, u.String(), postgres.Options{MaxConns: 4})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
		Kill: func(t *testing.T, name string) {
			conn := connect(t, base)
			var n int
			if err := conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
				WHERE datname = current_database() AND application_name = $1`, "allfives_rater_"+name).Scan(&n); err != nil {
				t.Fatal(err)
			}
			t.Logf("terminated %d sessions of instance %s", n, name)
		},
	}
}

// TestRatingsProjection: two instances on one database rate about 200 matches ended in a
// shuffled order across both; instance a's sessions are terminated mid-way; b finishes, and
// the table equals the rebuild.
func TestRatingsProjection(t *testing.T) {
	storetest.RunRatingsProjection(t, instances(t))
}

// TestSealedRatings: two instances on one database: the matches of a duplicate round are
// rated when it ends, at its end (storetest.RunSealedRatings).
func TestSealedRatings(t *testing.T) {
	storetest.RunSealedRatings(t, instances(t))
}
