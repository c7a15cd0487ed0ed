package sqlite

import (
	"context"
	"database/sql"
)

// Checkpoints off the commit path. SQLite copies the WAL back into the database file (a
// checkpoint) when a commit leaves the WAL over 1,000 pages, and does it inside that commit,
// fsyncs included: with group commit every append of the batch would wait for it. The writer
// therefore turns automatic checkpoints off, and a goroutine of its own, on its own
// connection, runs a PASSIVE checkpoint (which never blocks the writer or the readers) after
// every checkpointEvery commits. Closing the store still checkpoints the whole WAL.

// checkpointEvery is how many group commits pass between two checkpoints.
const checkpointEvery = 32

// checkpointer runs the checkpoints on its own connection.
type checkpointer struct {
	db      *sql.DB
	kick    chan struct{} // capacity 1: "checkpoint soon"
	stopped chan struct{}
	commits int // since the last kick; only the committer touches it
}

func newCheckpointer(db *sql.DB) *checkpointer {
	c := &checkpointer{db: db, kick: make(chan struct{}, 1), stopped: make(chan struct{})}
	go c.run()
	return c
}

// committed counts a commit and kicks a checkpoint every checkpointEvery of them; the
// committer calls it, and it never blocks.
func (c *checkpointer) committed() {
	if c.commits++; c.commits < checkpointEvery {
		return
	}
	c.commits = 0
	select {
	case c.kick <- struct{}{}:
	default: // one is pending already
	}
}

func (c *checkpointer) run() {
	defer close(c.stopped)
	for range c.kick {
		// A failure (SQLITE_BUSY while another process checkpoints) is harmless: the next
		// kick tries again, and the WAL only grows meanwhile.
		_, _ = c.db.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
	}
}

// close stops the goroutine, once the committer has stopped, and closes its connection.
func (c *checkpointer) close() error {
	close(c.kick)
	<-c.stopped
	return c.db.Close()
}
