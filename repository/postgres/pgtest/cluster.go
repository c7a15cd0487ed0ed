package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pgBin is where Debian puts PostgreSQL 15's server programs.
const pgBin = "/usr/lib/postgresql/15/bin"

// Cluster is a PostgreSQL server of a test's own, in a temporary directory on a free port, for
// tests that stop and start the database: the shared server must never be restarted, since
// other tests use it at the same time.
type Cluster struct {
	tb   testing.TB
	dir  string
	port int
	as   []string // runuser -u postgres --, when running as root (postgres refuses root)
}

// NewCluster initialises and starts a private server, stopped when tb ends. Without the
// server programs it skips tb with one line saying how to get them (fails it when CI=true).
func NewCluster(tb testing.TB) *Cluster {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(pgBin, "pg_ctl")); err != nil {
		msg := "PostgreSQL 15's server programs are not in " + pgBin + "; to run this test: apt-get install -y postgresql-15"
		if os.Getenv("CI") == "true" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	// Not t.TempDir: its parents are 0700 and root's, which the postgres user cannot enter.
	dir, err := os.MkdirTemp("", "allfives-pg-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	c := &Cluster{tb: tb, dir: dir, port: freePort(tb)}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			tb.Fatalf("running as root needs the postgres user: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			tb.Fatal(err)
		}
		c.as = []string{"runuser", "-u", "postgres", "--"}
	}
	c.run("initdb", "-D", c.data(), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
	c.Start()
	tb.Cleanup(func() { c.pgctl("stop", "-m", "immediate") })
	return c
}

// URL is the cluster's postgres database.
func (c *Cluster) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// Port is the port the cluster listens on.
func (c *Cluster) Port() int { return c.port }

// Start starts the server and waits until it accepts connections.
func (c *Cluster) Start() {
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c full_page_writes=off", c.port, c.dir)
	c.pgctl("start", "-w", "-t", "120", "-l", filepath.Join(c.dir, "log"), "-o", opts)
}

// Stop stops the server the way `pg_ctlcluster ... stop` does (fast: sessions are ended,
// transactions in flight rolled back, committed ones kept).
func (c *Cluster) Stop() { c.pgctl("stop", "-m", "fast", "-w", "-t", "120") }

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

func (c *Cluster) pgctl(args ...string) {
	c.run("pg_ctl", append([]string{"-D", c.data()}, args...)...)
}

func (c *Cluster) run(prog string, args ...string) {
	c.tb.Helper()
	argv := append(append([]string{}, c.as...), append([]string{filepath.Join(pgBin, prog)}, args...)...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		c.tb.Fatalf("%s %s: %v\n%s\n%s", prog, strings.Join(args, " "), err, out, log)
	}
}

// freePort is a TCP port nothing listens on now.
func freePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
