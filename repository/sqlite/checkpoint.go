package sqlite

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
)

// Checkpoints off the commit path. SQLite copies the WAL back into the database file (a
// checkpoint) when a commit leaves the WAL over 1,000 pages, and does it inside that commit,
// fsyncs included: with group commit every append of the batch would wait for it. The writer
// therefore turns automatic checkpoints off, and a goroutine of its own, on its own
// connection, checkpoints after every checkpointEvery commits, in two steps. First a PASSIVE
// checkpoint, which never blocks the writer or the readers, copies what the WAL holds. Under a
// steady load the committer has written more frames by the time it ends, and a WAL that is
// never copied whole is never started again from its beginning: it grows without bound, and
// each commit then appends to the file, whose sync must also journal the file's new size, which
// costs more than overwriting pages in place (docs/decisions/002-checkpoints-off-the-commit-path.md).
// So a second PASSIVE checkpoint copies those few frames
// while the committer waits between two batches; the next commit then writes the WAL from its
// start again. Closing the store still checkpoints the whole WAL.

// checkpointEvery is how many commits pass between two checkpoints. Each checkpoint writes the
// pages the commits changed into the database file and syncs it, and pauses the committer for
// its second step; a page that several commits changed is written once per checkpoint, so
// rarer checkpoints write less in all. 128 keeps the WAL to tens of MB while giving more durable
// moves per second than 32 did (docs/decisions/002-checkpoints-off-the-commit-path.md).
const checkpointEvery = 128

// checkpointer runs the checkpoints on its own connection.
type checkpointer struct {
	db      *sql.DB
	writer  *sync.Mutex   // held by the committer while it writes a batch, and by creates
	kick    chan struct{} // capacity 1: "checkpoint soon"
	stop    chan struct{} // closed by close
	stopped chan struct{} // closed when the goroutine has returned
	commits atomic.Int64  // commits so far: the committer's batches and the creates
	once    sync.Once     // close's
	err     error         // close's answer
}

func newCheckpointer(db *sql.DB, writer *sync.Mutex) *checkpointer {
	c := &checkpointer{db: db, writer: writer, kick: make(chan struct{}, 1),
		stop: make(chan struct{}), stopped: make(chan struct{})}
	go c.run()
	return c
}

// committed counts a commit and kicks a checkpoint every checkpointEvery of them; it never
// blocks.
func (c *checkpointer) committed() {
	if c.commits.Add(1)%checkpointEvery != 0 {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default: // one is pending already
	}
}

func (c *checkpointer) run() {
	defer close(c.stopped)
	for {
		select {
		case <-c.stop:
			return
		case <-c.kick:
			c.checkpoint(context.Background())
		}
	}
}

// checkpoint copies the WAL into the database: the bulk without stopping anyone, then what
// was committed meanwhile with the committer paused between two batches. SQLite starts the
// WAL again only for a writer whose transaction began after the last frame was copied, so the
// second step is needed even when the first copied everything: a batch may have begun during
// it. A failure (SQLITE_BUSY while another process checkpoints) is harmless: the next kick
// tries again, and the WAL only grows meanwhile.
func (c *checkpointer) checkpoint(ctx context.Context) {
	if err := c.passive(ctx); err != nil {
		return
	}
	c.writer.Lock()
	defer c.writer.Unlock()
	_ = c.passive(ctx)
}

// passive runs one PASSIVE checkpoint.
func (c *checkpointer) passive(ctx context.Context) error {
	_, err := c.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
	return err
}

// close stops the goroutine and closes its connection; a create that commits later only
// kicks a goroutine that is gone. Calling it again returns the first answer.
func (c *checkpointer) close() error {
	c.once.Do(func() {
		close(c.stop)
		<-c.stopped
		c.err = c.db.Close()
	})
	return c.err
}
