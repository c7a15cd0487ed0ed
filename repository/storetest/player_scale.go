package storetest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlrow"
)

// The player-matches benchmark (docs/performance.md): a player's matches, and its turns, one
// page at a time, among a million stored matches, on a SQL store loaded by PlayerScale.Load
// and timed by BenchPlayerMatches. Run it with
//
//	go test ./repository/sqlite -run '^$' -bench PlayerMatchesAtScale -benchtime 2s -timeout 60m
//	go test ./repository/postgres -run '^$' -bench PlayerMatchesAtScale -benchtime 2s -timeout 60m
//
// ALLFIVES_BENCH_MATCHES sets how many matches are stored (1,000,000 unless set). Only -bench
// runs it; -short skips it.

// PlayerScale is the data set: Matches matches of two seats each, created two to a second
// (so created_at ties are common) with ids in no order of their own, of which 93% are
// finished, 4% in progress (half of them at each seat's turn), 1.5% waiting with seat 1
// open and 1.5% expired. Two players hold many of them:
//   - Heavy holds one seat in every 100th match (10,000 of a million), with the statuses and
//     turns of the whole: about 200 of its matches are its turn, spread over its history;
//   - Sparse holds one seat in every 100th match too, all finished but its oldest, which is in
//     progress at its turn: a turn=me page must look through all of its matches to find it.
//
// The other seats are bound, one in two, to one of 10,000 other players, and anonymous
// otherwise, so the index of bound seats holds about a million entries.
type PlayerScale struct {
	Matches int
	Base    time.Time
	// Heavy and Sparse are the ids of the two players who hold many matches.
	Heavy, Sparse string
}

// others is how many more players hold the remaining bound seats.
const others = 10000

// NewPlayerScale is the data set with n matches; n 0 means ALLFIVES_BENCH_MATCHES, or a
// million.
func NewPlayerScale(tb testing.TB, n int) PlayerScale {
	tb.Helper()
	if n == 0 {
		n = 1_000_000
		if s := os.Getenv("ALLFIVES_BENCH_MATCHES"); s != "" {
			v, err := strconv.Atoi(s)
			if err != nil || v < 1000 {
				tb.Fatalf("ALLFIVES_BENCH_MATCHES=%q: want a count of at least 1000", s)
			}
			n = v
		}
	}
	return PlayerScale{Matches: n, Base: Base, Heavy: scaleID("heavy"), Sparse: scaleID("sparse")}
}

// scaleID is a player or match id of the data set: 32 hex characters derived from name.
func scaleID(name string) string {
	sum := sha256.Sum256([]byte("allfives scale|" + name))
	return hex.EncodeToString(sum[:16])
}

// mix is a well-spread 64-bit hash of i and salt.
func mix(i, salt uint64) uint64 {
	x := i*0x9e3779b97f4a7c15 + salt*0xbf58476d1ce4e5b9
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// scaleMatch is one generated match: its matches row and its two seats rows.
type scaleMatch struct {
	row   sqlrow.MatchRow
	seats [2]sqlrow.SeatRow
}

// match generates match i. template is a real two-seat match's matches row, whose players
// and seed every generated row shares.
func (ps PlayerScale) match(i int, template sqlrow.MatchRow) scaleMatch {
	u := uint64(i)
	created := ps.Base.Add(time.Duration(i/2) * time.Second)
	m := scaleMatch{row: template}
	r := &m.row
	r.ID = scaleID("match " + strconv.Itoa(i))
	r.CreatedAt, r.UpdatedAt = sqlrow.FormatTime(created), sqlrow.FormatTime(created.Add(10*time.Minute))
	h := mix(u, 1)
	status := domain.StatusFinished
	switch p := h % 1000; {
	case p >= 985:
		status = domain.StatusExpired
	case p >= 970:
		status = domain.StatusWaiting
	case p >= 930:
		status = domain.StatusInProgress
	}
	heavy, sparse := -1, -1
	switch i % 100 {
	case 0:
		heavy = i / 100 % 2
	case 50:
		sparse = (i/100 + 1) % 2
		status = domain.StatusFinished
		if i == 50 {
			status = domain.StatusInProgress
		}
	}
	turn := int(h >> 20 % 2)
	if i == 50 {
		turn = sparse
	}
	r.Status, r.Turn, r.WinnerSide, r.OpenSeats, r.Version, r.TurnDeadline = string(status), nil, nil, "[]", 60, nil
	switch status {
	case domain.StatusInProgress:
		r.Turn, r.Version = &turn, 20
	case domain.StatusWaiting:
		r.OpenSeats, r.Version = "[1]", 1
	case domain.StatusFinished:
		w := int(h >> 30 % 2)
		r.WinnerSide = &w
	}
	for seat := range 2 {
		token := sha256.Sum256(fmt.Appendf(nil, "token %d %d", i, seat))
		st := sqlrow.SeatRow{MatchID: r.ID, Seat: seat, Name: fmt.Sprintf("p%d", seat), Kind: string(domain.Human), TokenHash: token[:]}
		if status == domain.StatusWaiting && seat == 1 {
			st.Kind, st.TokenHash = string(domain.Open), nil
		}
		var player string
		switch {
		case seat == heavy:
			player = ps.Heavy
		case seat == sparse:
			player = ps.Sparse
		case mix(u, uint64(2+seat))%2 == 0:
			// One of the others, never the same one on both seats of a match.
			player = otherID(int(mix(u, 4)%others+uint64(seat)) % others)
		}
		if player != "" {
			st.PlayerID, st.MatchCreatedAt = &player, &r.CreatedAt
		}
		m.seats[seat] = st
	}
	return m
}

// otherID is the id of the k-th of the other players.
func otherID(k int) string { return scaleID("other " + strconv.Itoa(k)) }

// scalePlayers are the players rows: Heavy, Sparse and the others.
func (ps PlayerScale) scalePlayers() []sqlrow.PlayerRow {
	at := sqlrow.FormatTime(ps.Base)
	row := func(id, name string) sqlrow.PlayerRow {
		key := sha256.Sum256([]byte("key " + id))
		return sqlrow.PlayerRow{ID: id, Name: name, NameKey: strings.ToLower(name), KeyHash: key[:], CreatedAt: at, KeyRotatedAt: at}
	}
	out := []sqlrow.PlayerRow{row(ps.Heavy, "Heavy"), row(ps.Sparse, "Sparse")}
	for k := range others {
		out = append(out, row(otherID(k), "Other "+strconv.Itoa(k)))
	}
	return out
}

// template is the matches row of a real two-seat match, in progress.
func template(tb testing.TB) sqlrow.MatchRow {
	f := NewFixture(tb, "template", Base, 0, "p0", "p1")
	r, err := sqlrow.ReadModel(f.Match.Summary(), f.Match.Version())
	if err != nil {
		tb.Fatal(err)
	}
	r.Seed = f.Record.Seed.String()
	return r
}

// Load stores the data set through db, an empty store's database, in transactions of
// loadChunk matches, each of INSERTs of batch matches (and their seats), prepared once,
// straight on database/sql; dollar says the placeholders are $1, $2... (PostgreSQL) rather
// than ? (SQLite). Batches of a thousand suit PostgreSQL, where each statement is a round
// trip; the SQLite driver binds parameters in a time that grows with the square of their
// number, so a batch of a few matches suits it. after, unless nil, runs after each
// transaction (the SQLite store checkpoints its write-ahead log there, as its committer
// does after appends). It logs how long it took.
func (ps PlayerScale) Load(tb testing.TB, db *sql.DB, dollar bool, batch int, after func() error) {
	tb.Helper()
	start := time.Now()
	tpl := template(tb)
	for from := 0; from < ps.Matches; from += loadChunk {
		ps.loadChunk(tb, db, dollar, batch, tpl, from, min(from+loadChunk, ps.Matches))
		if after != nil {
			if err := after(); err != nil {
				tb.Fatal(err)
			}
		}
	}
	tb.Logf("loaded %d matches, %d seats and %d players in %v", ps.Matches, 2*ps.Matches, others+2, time.Since(start).Round(time.Millisecond))
}

// loadChunk is how many matches one transaction of Load stores: a bounded write-ahead log.
const loadChunk = 50_000

// loadChunk stores matches from to to (and, with the first, the players) in one transaction.
func (ps PlayerScale) loadChunk(tb testing.TB, db *sql.DB, dollar bool, batch int, tpl sqlrow.MatchRow, from, to int) {
	tb.Helper()
	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if from == 0 {
		people := &inserter{tb: tb, tx: tx, dollar: dollar, table: "players", rows: batch, auto: true,
			cols: []string{"id", "name", "name_key", "key_hash", "created_at", "key_rotated_at"}}
		for _, p := range ps.scalePlayers() {
			people.add(p.ID, p.Name, p.NameKey, p.KeyHash, p.CreatedAt, p.KeyRotatedAt)
		}
		people.flush()
	}
	matches := &inserter{tb: tb, tx: tx, dollar: dollar, table: "matches", rows: batch,
		cols: []string{"id", "seed", "status", "players", "scores", "winner_side", "hands", "version", "created_at", "updated_at",
			"listed", "open_seats", "target", "turn_seconds", "turn", "turn_deadline", "seeded"}}
	seats := &inserter{tb: tb, tx: tx, dollar: dollar, table: "seats", rows: 2 * batch,
		cols: []string{"match_id", "seat", "name", "kind", "bot", "token_hash", "invite_hash", "player_id", "match_created_at"}}
	for i := from; i < to; i++ {
		m := ps.match(i, tpl)
		r := m.row
		matches.add(r.ID, r.Seed, r.Status, r.Players, r.Scores, r.WinnerSide, r.Hands, r.Version, r.CreatedAt, r.UpdatedAt,
			r.Listed, r.OpenSeats, r.Target, r.TurnSeconds, r.Turn, r.TurnDeadline, r.Seeded)
		for _, st := range m.seats {
			seats.add(st.MatchID, st.Seat, st.Name, st.Kind, st.Bot, blob(st.TokenHash), blob(st.InviteHash), st.PlayerID, st.MatchCreatedAt)
		}
		if matches.full() {
			matches.flush() // the matches rows before the seats that name them
			seats.flush()
		}
	}
	matches.flush()
	seats.flush()
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
}

// inserter gathers rows of one table into multi-row INSERTs of up to rowsPerInsert rows.
type inserter struct {
	tb     testing.TB
	tx     *sql.Tx
	dollar bool
	table  string
	cols   []string
	rows   int  // rows to a full INSERT
	auto   bool // flush when full
	args   []any
	stmt   *sql.Stmt // the statement of a full batch, prepared once
}

// add adds a row; a table whose rows name no other's flushes itself when the batch is full
// (auto), the others are flushed by the caller in an order the foreign keys allow.
func (in *inserter) add(vals ...any) {
	in.args = append(in.args, vals...)
	if in.auto && in.full() {
		in.flush()
	}
}

func (in *inserter) full() bool { return len(in.args) >= in.rows*len(in.cols) }

func (in *inserter) flush() {
	n := len(in.args) / len(in.cols)
	if n == 0 {
		return
	}
	var err error
	if n == in.rows {
		if in.stmt == nil {
			if in.stmt, err = in.tx.Prepare(in.sql(n)); err != nil {
				in.tb.Fatal(err)
			}
		}
		_, err = in.stmt.Exec(in.args...)
	} else {
		_, err = in.tx.Exec(in.sql(n), in.args...)
	}
	if err != nil {
		in.tb.Fatalf("insert into %s: %v", in.table, err)
	}
	in.args = in.args[:0]
}

// sql is the INSERT of n rows.
func (in *inserter) sql(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES ", in.table, strings.Join(in.cols, ", "))
	p := 0
	for r := range n {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for c := range in.cols {
			if c > 0 {
				b.WriteString(", ")
			}
			p++
			if in.dollar {
				b.WriteString("$" + strconv.Itoa(p))
			} else {
				b.WriteByte('?')
			}
		}
		b.WriteByte(')')
	}
	return b.String()
}

// ScaleCase is one query the benchmark times.
type ScaleCase struct {
	Name  string
	Query referee.PlayerMatchQuery
}

// Cases are the queries the benchmark times, limit 20 (the API's default) unless it says
// otherwise: first pages, and cursor pages deep into the list (the cursor found by paging
// there), for all of Heavy's matches, each status, turn=me, and Sparse's turn.
func (ps PlayerScale) Cases(tb testing.TB, s referee.PlayerMatchStore) []ScaleCase {
	tb.Helper()
	deep := func(q referee.PlayerMatchQuery, pages int) referee.PlayerMatchQuery {
		for range pages {
			page, err := s.PlayerMatches(context.Background(), q)
			if err != nil {
				tb.Fatal(err)
			}
			if page.NextCursor == "" {
				break
			}
			q.Cursor = page.NextCursor
		}
		return q
	}
	h := referee.PlayerMatchQuery{Player: ps.Heavy, Limit: 20}
	with := func(f func(*referee.PlayerMatchQuery)) referee.PlayerMatchQuery {
		q := h
		f(&q)
		return q
	}
	inProgress := with(func(q *referee.PlayerMatchQuery) { q.Status = domain.StatusInProgress })
	turn := with(func(q *referee.PlayerMatchQuery) { q.Turn = true })
	return []ScaleCase{
		{"all/first", h},
		{"all/cursor-page-100", deep(h, 100)},
		{"all/first-limit-100", with(func(q *referee.PlayerMatchQuery) { q.Limit = 100 })},
		{"finished/first", with(func(q *referee.PlayerMatchQuery) { q.Status = domain.StatusFinished })},
		{"in_progress/first", inProgress},
		{"in_progress/cursor-page-10", deep(inProgress, 10)},
		{"waiting/first", with(func(q *referee.PlayerMatchQuery) { q.Status = domain.StatusWaiting })},
		{"expired/first", with(func(q *referee.PlayerMatchQuery) { q.Status = domain.StatusExpired })},
		{"turn-me/first", turn},
		{"turn-me/cursor-page-5", deep(turn, 5)},
		{"turn-me-sparse/first", referee.PlayerMatchQuery{Player: ps.Sparse, Limit: 20, Turn: true}},
	}
}

// Check pages through every case's query to its end, checking the pages against the data
// set: newest first with no repeats, the player's seat, the status and the turn asked for,
// and, for Sparse's turn, exactly its oldest match. It is the benchmark's proof that the
// fast answers are the right ones.
func (ps PlayerScale) Check(tb testing.TB, s referee.PlayerMatchStore) {
	tb.Helper()
	tpl := template(tb)
	byID := map[string]scaleMatch{}
	want := map[string][]string{} // player -> ids, newest first
	for i := ps.Matches - 1; i >= 0; i-- {
		if i%50 != 0 {
			continue
		}
		m := ps.match(i, tpl)
		byID[m.row.ID] = m
		for _, st := range m.seats {
			if st.PlayerID != nil && (*st.PlayerID == ps.Heavy || *st.PlayerID == ps.Sparse) {
				want[*st.PlayerID] = append(want[*st.PlayerID], m.row.ID)
			}
		}
	}
	for _, c := range ps.Cases(tb, s) {
		q := c.Query
		q.Cursor, q.Limit = "", 100
		var got []string
		for {
			page, err := s.PlayerMatches(context.Background(), q)
			if err != nil {
				tb.Fatalf("%s: %v", c.Name, err)
			}
			for _, pm := range page.Matches {
				m, ok := byID[pm.ID]
				if !ok || *m.seats[pm.Seat].PlayerID != q.Player {
					tb.Fatalf("%s: match %s seat %d is not the player's", c.Name, pm.ID, pm.Seat)
				}
				if pm.Summary.Status != domain.Status(m.row.Status) || q.Status != "" && pm.Summary.Status != q.Status ||
					q.Turn && (pm.Summary.Status != domain.StatusInProgress || pm.Summary.Turn == nil || *pm.Summary.Turn != pm.Seat) {
					tb.Fatalf("%s: match %s is %s at turn %v, seat %d", c.Name, pm.ID, pm.Summary.Status, pm.Summary.Turn, pm.Seat)
				}
				got = append(got, pm.ID)
			}
			if page.NextCursor == "" {
				break
			}
			q.Cursor = page.NextCursor
		}
		var exp []string
		for _, id := range want[q.Player] {
			m := byID[id]
			seat := slices.IndexFunc(m.seats[:], func(st sqlrow.SeatRow) bool { return st.PlayerID != nil && *st.PlayerID == q.Player })
			switch {
			case q.Status != "" && m.row.Status != string(q.Status):
			case q.Turn && (m.row.Status != string(domain.StatusInProgress) || *m.row.Turn != seat):
			default:
				exp = append(exp, id)
			}
		}
		if !slices.Equal(got, exp) {
			tb.Fatalf("%s: %d matches listed, want %d (or in another order)", c.Name, len(got), len(exp))
		}
		if c.Name == "turn-me-sparse/first" && (len(got) != 1 || got[0] != ps.match(50, tpl).row.ID) {
			tb.Fatalf("%s: %v, want the oldest match of Sparse alone", c.Name, got)
		}
	}
}

// BenchPlayerMatches times each case, one query at a time, and reports the p50 and p99 of a
// page in milliseconds (and the mean in ns/op), as sub-benchmarks named after the cases.
func BenchPlayerMatches(b *testing.B, s referee.PlayerMatchStore, cases []ScaleCase) {
	for _, c := range cases {
		b.Run(c.Name, func(b *testing.B) {
			var took []time.Duration
			n := 0
			for b.Loop() {
				t0 := time.Now()
				page, err := s.PlayerMatches(context.Background(), c.Query)
				took = append(took, time.Since(t0))
				if err != nil {
					b.Fatal(err)
				}
				n = len(page.Matches)
			}
			slices.Sort(took)
			at := func(p float64) float64 {
				return float64(took[min(len(took)-1, int(p*float64(len(took))))]) / float64(time.Millisecond)
			}
			b.ReportMetric(at(0.50), "p50-ms")
			b.ReportMetric(at(0.99), "p99-ms")
			b.ReportMetric(float64(n), "matches/page")
		})
	}
}

// blob is b as a query argument: NULL when b is nil, as sqlrow.Blob stores it.
func blob(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

// CaptureSQL runs f with a session of db that records every statement it runs, its values
// inlined as the driver's dialect writes them, and returns the statements: what a query
// plan is asked of.
func CaptureSQL(db *gorm.DB, f func(db *gorm.DB)) []string {
	c := &sqlCapture{Interface: logger.Discard}
	f(db.Session(&gorm.Session{Logger: c}))
	return c.stmts
}

type sqlCapture struct {
	logger.Interface
	stmts []string
}

func (c *sqlCapture) LogMode(logger.LogLevel) logger.Interface { return c }

func (c *sqlCapture) Trace(_ context.Context, _ time.Time, fc func() (string, int64), _ error) {
	sql, _ := fc()
	c.stmts = append(c.stmts, sql)
}
