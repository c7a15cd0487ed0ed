package sqlite

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Group commit (docs/design.md, "Group commit and reads that never wait"): one goroutine,
// the committer, owns every append. It takes all the appends that queued while it was busy and
// writes them in one BEGIN IMMEDIATE transaction, each under its own savepoint and its own
// version check, so one append's conflict rolls back that append alone. Every caller hears its
// answer only after the COMMIT that holds its events returned, that is after the fsync at
// sync=full. There is no timer: an idle committer starts a batch as soon as one append
// arrives, and a batch is whatever queued during the previous commit, so moves on different
// matches share one fsync instead of queueing for one each.

// maxBatch bounds one transaction, so a burst cannot hold the write lock for long.
const maxBatch = 256

// errClosed answers appends made after Close.
var errClosed = errors.New("the store is closed")

// pending is one queued append and the channel its caller waits on.
type pending struct {
	ctx  context.Context
	w    *appendWrite
	done chan error // buffered: the committer never blocks on a caller
}

// committer is the queue and the goroutine that drains it.
type committer struct {
	s       *Store
	mu      sync.Mutex
	queue   []*pending
	closed  bool
	wake    chan struct{} // capacity 1: "the queue is not empty"
	stopped chan struct{} // closed when the goroutine has returned
	// beforeCommit, when set (by tests only), runs just before COMMIT with the batch size; an
	// error from it is handled exactly like a failed COMMIT.
	beforeCommit func(n int) error
}

func newCommitter(s *Store) *committer {
	c := &committer{s: s, wake: make(chan struct{}, 1), stopped: make(chan struct{})}
	go c.run()
	return c
}

// submit queues w and waits for the commit that holds it (or for the append's own failure).
// Once queued, an append is always answered: the caller waits for the committer even if its
// context ends, so that it never reports a failure for a move that did commit.
func (c *committer) submit(ctx context.Context, w *appendWrite) error {
	p := &pending{ctx: ctx, w: w, done: make(chan error, 1)}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return errClosed
	}
	c.queue = append(c.queue, p)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default: // already signalled
	}
	return <-p.done
}

// take removes up to maxBatch queued appends; done is true when the store is closed and the
// queue empty.
func (c *committer) take() (batch []*pending, done bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := min(len(c.queue), maxBatch)
	batch = append(batch, c.queue[:n]...)
	c.queue = c.queue[n:]
	if len(c.queue) == 0 {
		c.queue = nil // let the old backing array go
	}
	return batch, len(batch) == 0 && c.closed
}

func (c *committer) run() {
	defer close(c.stopped)
	for {
		batch, done := c.take()
		if done {
			return
		}
		if len(batch) == 0 {
			<-c.wake
			continue
		}
		c.commit(batch)
	}
}

// close stops taking appends, lets the queued ones commit and waits for the goroutine.
func (c *committer) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	<-c.stopped
}

// commit writes one batch and answers every caller in it.
func (c *committer) commit(batch []*pending) {
	live := batch[:0:0]
	for _, p := range batch {
		if err := p.ctx.Err(); err != nil {
			p.done <- err // gave up before its turn: nothing of it was written
			continue
		}
		live = append(live, p)
	}
	if len(live) == 0 {
		return
	}
	errs := make([]error, len(live))
	c.s.writing.Lock()
	err := c.write(live, errs)
	c.s.writing.Unlock()
	if err == nil {
		c.s.ck.committed()
	}
	for i, p := range live {
		if err != nil {
			// Nothing of this batch is durable: every caller hears so, also those whose own
			// savepoint went well.
			p.done <- fmt.Errorf("commit: %w", err)
			continue
		}
		if errs[i] == nil {
			c.s.heads.put(p.w.id, p.w.head())
		}
		p.done <- errs[i]
	}
}

// write runs the batch's transaction on the committer's connection: each append under its own
// savepoint, its error in errs; the error returned is the transaction's (BEGIN or COMMIT).
func (c *committer) write(batch []*pending, errs []error) (err error) {
	wc := c.s.wc
	if _, err := wc.run(sqlBegin); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			// A COMMIT that fails may leave the transaction open; end it so that the next
			// batch can BEGIN.
			_, _ = wc.run(sqlAbort)
		}
	}()
	b := &bound{c: wc}
	if len(batch) == 1 {
		// Alone in its transaction an append needs no savepoint: its failure is the rollback.
		if errs[0] = b.append(c.s, batch[0].w); errs[0] != nil {
			_, err := wc.run(sqlAbort)
			return err
		}
	} else {
		for i, p := range batch {
			errs[i] = b.savepoint(func() error { return b.append(c.s, p.w) })
		}
	}
	if c.beforeCommit != nil {
		if err := c.beforeCommit(len(batch)); err != nil {
			return err
		}
	}
	_, err = wc.run(sqlCommit)
	return err
}
