package postgres

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/allfives/allfives/repository/storetest"
)

// TestHeadQueriesProbeTheIndexes: pgx prepares the batches' statements once per connection,
// and PostgreSQL keeps a statement's generic plan until the table is next analyzed. Made on a
// new database's few rows, a plan that could scan the table would keep scanning it as the
// table grows. So the generic plans, made while matches and players hold three rows each, must
// probe the primary key and players_key_hash, and never read either table whole.
func TestHeadQueriesProbeTheIndexes(t *testing.T) {
	ctx := context.Background()
	s := openFresh(t, Options{MaxConns: 1})
	for i := range 3 {
		if err := storetest.NewFixture(t, fmt.Sprint("m", i), storetest.Base, 0).Create(ctx, s); err != nil {
			t.Fatal(err)
		}
		if err := s.CreatePlayer(ctx, storetest.NewPlayer(t, fmt.Sprint("P", i), storetest.Base)); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := s.sqlDB.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET plan_cache_mode = force_generic_plan"); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ query, args, want string }{
		"headQuery":    {headQuery, "'{m0,m1}'", "matches_pkey"},
		"headKeyQuery": {headKeyQuery, `'{m0,m1}', '{"\\x00"}'`, "players_key_hash"},
	} {
		if _, err := conn.ExecContext(ctx, "PREPARE "+name+" AS "+c.query); err != nil {
			t.Fatal(err)
		}
		rows, err := conn.QueryContext(ctx, "EXPLAIN EXECUTE "+name+"("+c.args+")")
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, line)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		if strings.Contains(text, "Seq Scan on matches") || strings.Contains(text, "Seq Scan on players") ||
			!strings.Contains(text, "Index Scan using matches_pkey") || !strings.Contains(text, c.want) {
			t.Errorf("%s's generic plan on a small table:\n%s\nwant index probes of matches_pkey and %s", name, text, c.want)
		}
	}
}
