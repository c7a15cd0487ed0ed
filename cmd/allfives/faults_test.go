package main

import (
	"testing"
	"time"

	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// TestHAProxyFaults: three serve processes on a private PostgreSQL server behind HAProxy
// running docs/deploy/haproxy.cfg, under load from clients that retry a move, same key, after
// a 503 or a lost answer. One instance is killed with SIGKILL and started again, then
// PostgreSQL is stopped and started under the load. No acknowledged move is lost or stored
// twice, every answer is 2xx, 409 or 503, every match audits clean, and every instance is
// ready again by itself.
func TestHAProxyFaults(t *testing.T) {
	need(t, "haproxy")
	pg := pgtest.NewCluster(t)
	faults(t, pg, pg.URL(), "")
}

// TestPgBouncerFaults: the same with the instances' pools behind PgBouncer in transaction
// mode (docs/deploy/pgbouncer.ini) and LISTEN on a direct connection (--listen-db).
func TestPgBouncerFaults(t *testing.T) {
	need(t, "haproxy")
	need(t, "pgbouncer")
	pg := pgtest.NewCluster(t)
	faults(t, pg, startPgBouncer(t, pg.Port()), pg.URL())
}

// faults runs the scenario on db (and listenDB, when set) and reports its figures.
func faults(t *testing.T, pg *pgtest.Cluster, db, listenDB string) {
	if testing.Short() {
		t.Skip("a fault scenario of about a minute; run without -short")
	}
	args := "--db " + db + " --drain 2s --bot-workers 1 --max-streams-per-client 1000 --access-sample 1000"
	if listenDB != "" {
		args += " --listen-db " + listenDB
	}
	first := newInstance(t, args) // migrates alone, before the others start
	ins := []*instance{first, newInstance(t, args), newInstance(t, args)}
	base := startHAProxy(t, ins)
	l := newLoad(base)
	l.run(t, 6)
	defer l.halt()
	l.waitAcked(t, 150)

	ins[1].kill()
	l.waitAcked(t, 150)
	ins[1].start()
	waitFor(t, "the restarted instance to be ready", ins[1].ready)
	l.waitAcked(t, 150)

	pg.Stop()
	time.Sleep(2 * time.Second) // the load meets a database that is not there
	pg.Start()
	back := untilReady(t, ins)
	l.waitAcked(t, 150)
	l.halt()
	if t.Failed() {
		return
	}

	lost, extra, bad := l.verify(t)
	summary, other := l.answers()
	t.Logf("%d moves acknowledged over %d matches; answers %s; stale reads %d; acknowledged events lost %d; unacknowledged events stored %d; audits not ok %d; every instance ready %.1f s after PostgreSQL started",
		l.acked.Load(), len(l.matches), summary, l.stale, lost, extra, bad, back.Seconds())
	if lost != 0 || extra != 0 || bad != 0 || other != 0 || l.stale != 0 {
		t.Fatalf("lost %d, stored unacknowledged %d, audits not ok %d, answers other than 2xx/409/503 %d, stale reads %d: want all 0", lost, extra, bad, other, l.stale)
	}
}
