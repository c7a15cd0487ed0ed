package postgres

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// headTimeout bounds one batch of head checks, which runs on a context of its own (its
// readers' contexts may end while it runs, and one reader's end must not fail the others): a
// database that does not answer within it is ErrStoreUnavailable, as one that refuses is.
const headTimeout = 5 * time.Second

// How checks share queries: at most maxHeadQueries run at once (each holds one of the pool's
// connections while it runs), and a check asked less than headWindow after a query started
// waits out the rest of that window for the checks that arrive with it, unless a query ends
// first. On an idle instance a check goes at once, alone. Measured against 8 at once and
// against one query per check, 2 gave the most state reads per second under load, with a few
// reads per query (docs/decisions/009-head-checks-share-queries.md).
const (
	maxHeadQueries = 2
	headWindow     = 100 * time.Microsecond
)

// headQuery reads the versions of a batch of matches: one index probe of matches' primary key
// per id, and a row for every id asked (a NULL version: no such match). It is written as a
// subquery per id rather than "WHERE id = ANY($1)" for its generic plan: PostgreSQL makes that
// plan once per connection, and for "= ANY" made while the table is small it is a sequential
// scan, kept until the table is next analyzed, which costs many times a lone probe from the
// first thousand matches on (docs/decisions/009-head-checks-share-queries.md). The subquery's
// plan is the index probe at any size.
const headQuery = "SELECT u.id, (SELECT m.version FROM matches m WHERE m.id = u.id) FROM unnest($1::text[]) AS u(id)"

// headQueryOne is headQuery for a batch of one id, the batch of every read on an idle
// instance. PostgreSQL plans a statement whose parameter is an array afresh on most
// executions (for a batch of a few ids a custom plan looks cheaper than the generic one,
// which must guess the array's length), which costs more than the probe itself; a statement
// of scalars is planned once per connection.
const headQueryOne = "SELECT id, version FROM matches WHERE id = $1"

// headKeyQuery is headQuery for a batch that also asks who some player keys belong to (a
// keyed read's key, folded into its head check): the same probes of matches, and one probe of
// the unique index players_key_hash per hash, in one statement, each a subquery for the same
// reason. A match's row has no key hash; a key's row has its hash and its player's id (NULL:
// no player's current key). It answers a player's id and no more, what a key's check of a
// seat needs: every column more costs each keyed read its decoding (about 2 us a read for the
// name and dates, measured).
const headKeyQuery = "SELECT u.id, (SELECT m.version FROM matches m WHERE m.id = u.id), NULL::bytea FROM unnest($1::text[]) AS u(id) " +
	"UNION ALL SELECT (SELECT p.id FROM players p WHERE p.key_hash = k.hash), 0, k.hash FROM unnest($2::bytea[]) AS k(hash)"

// headKeyQueryOne is headKeyQuery for a batch of one id and one key, as headQueryOne is
// headQuery's.
const headKeyQueryOne = "SELECT id, version, NULL::bytea FROM matches WHERE id = $1 " +
	"UNION ALL SELECT id, 0, key_hash FROM players WHERE key_hash = $2"

// headBatch lets the head checks of concurrent reads share queries, as group commit lets
// appends share a commit: a check joins the group waiting for the next query, and a group goes
// when a query slot is free and no query started within headWindow, or when a query ends. A
// check joins only a group whose query has not started, so the query that answers it starts
// after the check was asked and sees every append committed before the read began, which is
// read-your-writes (docs/design.md, "Several instances"). Under load a read costs a share of
// a query instead of a query.
//
// The zero value is ready for use.
type headBatch struct {
	mu        sync.Mutex
	running   int          // queries in flight, or about to start
	lastStart time.Time    // when the latest query started
	pending   *headGroup   // the checks waiting for the next query; nil when none
	free      []*headGroup // groups whose readers have all read them, for reuse
	// limit caps the queries in flight; 0: maxHeadQueries (tests set another).
	limit int
	// query answers a group; nil: queryHeads on the store's pool (tests set another).
	query func(context.Context, *sql.DB, *headGroup) error
}

// headGroup is one query's checks: its distinct ids and key hashes, each reader's index into
// them, and, once done is closed, each id's version (-1: no such match) and each hash's
// player's id ("": no player's current key has that hash), or the error of the whole query.
type headGroup struct {
	ids       []string
	index     map[string]int // id to its index in ids, once ids outgrows a scan
	versions  []int
	hashes    [][]byte
	hashIndex map[string]int // hash to its index in hashes, once hashes outgrows a scan
	found     []string
	err       error
	done      chan struct{}
	readers   int  // readers that have not yet read their answer, under headBatch.mu
	timed     bool // a timer will start the group at the end of its window, under headBatch.mu
}

// scanLimit is how many distinct ids a group looks through one by one before it keeps a map.
const scanLimit = 16

// add puts id in the group, once, and returns its index.
func (g *headGroup) add(id string) int {
	if g.index != nil {
		if i, ok := g.index[id]; ok {
			return i
		}
	} else {
		for i, have := range g.ids {
			if have == id {
				return i
			}
		}
	}
	g.ids = append(g.ids, id)
	i := len(g.ids) - 1
	switch {
	case g.index != nil:
		g.index[id] = i
	case len(g.ids) > scanLimit:
		g.index = make(map[string]int, 2*len(g.ids))
		for j, have := range g.ids {
			g.index[have] = j
		}
	}
	return i
}

// addHash puts hash in the group, once, and returns its index.
func (g *headGroup) addHash(hash []byte) int {
	if i := g.findHash(hash); i >= 0 {
		return i
	}
	g.hashes = append(g.hashes, hash)
	i := len(g.hashes) - 1
	switch {
	case g.hashIndex != nil:
		g.hashIndex[string(hash)] = i
	case len(g.hashes) > scanLimit:
		g.hashIndex = make(map[string]int, 2*len(g.hashes))
		for j, have := range g.hashes {
			g.hashIndex[string(have)] = j
		}
	}
	return i
}

// findHash is the index of hash among the group's hashes, -1 when absent.
func (g *headGroup) findHash(hash []byte) int {
	if g.hashIndex != nil {
		if i, ok := g.hashIndex[string(hash)]; ok {
			return i
		}
		return -1
	}
	for i, have := range g.hashes {
		if bytes.Equal(have, hash) {
			return i
		}
	}
	return -1
}

// head returns match id's version through the batch, querying db.
func (b *headBatch) head(ctx context.Context, id string, db *sql.DB) (int, error) {
	version, _, err := b.check(ctx, id, nil, db)
	if err != nil {
		return 0, err
	}
	if version < 0 {
		return 0, fmt.Errorf("head of %q: %w", id, domain.ErrMatchNotFound)
	}
	return version, nil
}

// check returns match id's version through the batch (-1: no such match), querying db, and,
// when keyHash is not nil, the id of the player whose key hashes to it ("": none), from
// the same query: a keyed read's head and key cost one round trip, shared with the checks
// that go with it.
func (b *headBatch) check(ctx context.Context, id string, keyHash []byte, db *sql.DB) (int, string, error) {
	if !utf8.ValidString(id) || strings.ContainsRune(id, 0) {
		// No match has such an id, and PostgreSQL would refuse it for the whole statement, so
		// for every check of the group: it never joins one.
		return -1, "", nil
	}
	b.mu.Lock()
	g := b.pending
	if g == nil {
		g = b.group()
		b.pending = g
	}
	i, j := g.add(id), -1
	if keyHash != nil {
		j = g.addHash(keyHash)
	}
	g.readers++
	lead := false
	if b.running < b.max() {
		now := time.Now()
		if since := now.Sub(b.lastStart); b.running == 0 || since >= headWindow {
			lead = true
			b.start(now)
		} else if !g.timed {
			// A query started a moment ago: this group waits for the rest of the window,
			// gathering the checks that arrive meanwhile, then goes.
			g.timed = true
			time.AfterFunc(headWindow-since, func() { b.timeUp(g, db) })
		}
	}
	b.mu.Unlock()

	if lead {
		// This reader runs its group itself, and hands the next one, if any, to a drainer,
		// so that it does not wait for queries it is not in.
		b.run(g, db)
		if next := b.next(); next != nil {
			go b.drain(next, db)
		}
	} else {
		select {
		case <-g.done:
		case <-ctx.Done():
			// The group is answered without this reader; it is not reused while counted.
			return 0, "", ctx.Err()
		}
	}
	version, err := g.versions[i], g.err
	var player string
	if j >= 0 {
		player = g.found[j]
	}
	b.mu.Lock()
	g.readers--
	if g.readers == 0 {
		b.recycle(g)
	}
	b.mu.Unlock()
	if err != nil {
		return 0, "", fmt.Errorf("head of %s: %w", id, err)
	}
	return version, player, nil
}

// max is how many queries may be in flight at once.
func (b *headBatch) max() int {
	if b.limit > 0 {
		return b.limit
	}
	return maxHeadQueries
}

// start takes the pending group for a query starting now. Under b.mu.
func (b *headBatch) start(now time.Time) {
	b.running++
	b.pending = nil
	b.lastStart = now
}

// timeUp starts group g at the end of its window, unless a query that ended has started it
// already, or as many queries as may run are running (the first of them to end starts it).
func (b *headBatch) timeUp(g *headGroup, db *sql.DB) {
	b.mu.Lock()
	if b.pending != g || b.running >= b.max() {
		b.mu.Unlock()
		return
	}
	b.start(time.Now())
	b.mu.Unlock()
	b.drain(g, db)
}

// next is called when a query ends: the pending group, started, or nil when none waits.
func (b *headBatch) next() *headGroup {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.running--
	g := b.pending
	if g != nil {
		b.start(time.Now())
	}
	return g
}

// drain runs group g, and then each group pending when the one before ended.
func (b *headBatch) drain(g *headGroup, db *sql.DB) {
	for g != nil {
		b.run(g, db)
		g = b.next()
	}
}

// run answers group g with one query and wakes its readers.
func (b *headBatch) run(g *headGroup, db *sql.DB) {
	ctx, cancel := context.WithTimeout(context.Background(), headTimeout)
	g.versions = g.versions[:0]
	for range g.ids {
		g.versions = append(g.versions, -1)
	}
	g.found = g.found[:0]
	for range g.hashes {
		g.found = append(g.found, "")
	}
	q := b.query
	if q == nil {
		q = queryHeads
	}
	err := q(ctx, db, g)
	if err != nil && ctx.Err() != nil && !errors.Is(err, storeerr.ErrStoreUnavailable) {
		err = fmt.Errorf("%w: no answer within %v: %v", storeerr.ErrStoreUnavailable, headTimeout, err)
	}
	cancel()
	g.err = err
	close(g.done)
}

// maxFree is how many answered groups are kept for reuse.
const maxFree = 4

// group returns an empty group, reused when one is free. Under b.mu.
func (b *headBatch) group() *headGroup {
	if n := len(b.free); n > 0 {
		g := b.free[n-1]
		b.free = b.free[:n-1]
		return g
	}
	return &headGroup{done: make(chan struct{})}
}

// recycle keeps an answered group whose readers have all read it. Under b.mu.
func (b *headBatch) recycle(g *headGroup) {
	if len(b.free) >= maxFree || cap(g.ids) > 4096 {
		return
	}
	clear(g.ids) // drop the strings
	clear(g.hashes)
	clear(g.found)
	g.ids, g.versions, g.err = g.ids[:0], g.versions[:0], nil
	g.hashes, g.found = g.hashes[:0], g.found[:0]
	g.index, g.hashIndex, g.timed = nil, nil, false
	g.done = make(chan struct{})
	b.free = append(b.free, g)
}

// queryHeads answers group g with headQuery, or headKeyQuery when it asks for keys too (or
// their forms of scalars, for a group of one id and at most one key), on one of the pool's
// connections, straight through pgx: the one query of every read skips database/sql's rows
// and gorm altogether. A connection is taken per batch, so a batch reconnects like every
// other statement after the database comes back.
func queryHeads(ctx context.Context, db *sql.DB, g *headGroup) (err error) {
	defer classify(&err)
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn()
		if len(g.hashes) > 0 {
			return queryHeadKeys(ctx, pc, g)
		}
		var rows pgx.Rows
		var err error
		if len(g.ids) == 1 {
			rows, err = pc.Query(ctx, headQueryOne, g.ids[0])
		} else {
			rows, err = pc.Query(ctx, headQuery, g.ids)
		}
		if err != nil {
			return err
		}
		defer rows.Close()
		var id pgtype.DriverBytes
		var version pgtype.Int4
		for rows.Next() {
			if err := rows.Scan(&id, &version); err != nil {
				return err
			}
			if i := g.find(id); i >= 0 && version.Valid {
				g.versions[i] = int(version.Int32)
			}
		}
		return rows.Err()
	})
}

// queryHeadKeys answers group g, which asks for keys, with headKeyQuery.
func queryHeadKeys(ctx context.Context, pc *pgx.Conn, g *headGroup) error {
	var rows pgx.Rows
	var err error
	if len(g.ids) == 1 && len(g.hashes) == 1 {
		rows, err = pc.Query(ctx, headKeyQueryOne, g.ids[0], g.hashes[0])
	} else {
		rows, err = pc.Query(ctx, headKeyQuery, g.ids, g.hashes)
	}
	if err != nil {
		return err
	}
	defer rows.Close()
	var id pgtype.DriverBytes
	var version pgtype.Int4
	var hash pgtype.DriverBytes
	for rows.Next() {
		if err := rows.Scan(&id, &version, &hash); err != nil {
			return err
		}
		if len(hash) == 0 { // a match's row: its key hash is NULL
			if i := g.find(id); i >= 0 && version.Valid {
				g.versions[i] = int(version.Int32)
			}
			continue
		}
		if j := g.findHash(hash); j >= 0 && id != nil {
			g.found[j] = string(id)
		}
	}
	return rows.Err()
}

// find is the index of id among the group's ids, -1 when absent.
func (g *headGroup) find(id []byte) int {
	if g.index != nil {
		if i, ok := g.index[string(id)]; ok {
			return i
		}
		return -1
	}
	for i, have := range g.ids {
		if have == string(id) {
			return i
		}
	}
	return -1
}
