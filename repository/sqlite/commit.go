package sqlite

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Group commit (docs/design.md, "Group commit and reads that never wait"): one append at a
// time writes, the leader, and it writes every append that queued while the previous batch was
// being written in one BEGIN IMMEDIATE transaction, each under its own savepoint and its own
// version check, so one append's conflict rolls back that append alone. Every caller hears its
// answer only after the COMMIT that holds its events returned, that is after the fsync at
// sync=full. There is no timer and no goroutine of its own: an append that finds no leader
// leads, writing its batch on its own goroutine, so a lone append is written without waking
// anyone; one that finds a leader queues, and when the leader's batch is committed it hands the
// lead to the oldest append queued meanwhile, whose batch is everything queued by then. Moves on
// different matches share one fsync instead of queueing for one each.

// maxBatch bounds one transaction, so a burst cannot hold the write lock for long.
const maxBatch = 256

// errClosed answers appends made after Close.
var errClosed = errors.New("the store is closed")

// pending is one queued append, the channel its caller waits on, and the one that hands it
// the lead.
type pending struct {
	ctx  context.Context
	w    *appendWrite
	done chan error    // buffered: the leader never blocks on a caller
	lead chan struct{} // buffered: "your batch is next; write it"
}

// committer is the queue of appends and who leads it.
type committer struct {
	s       *Store
	mu      sync.Mutex
	queue   []*pending
	closed  bool
	leading bool       // an append is writing a batch or has been handed the lead
	idle    *sync.Cond // on mu: signalled when leading ends
	// beforeCommit, when set (by tests only), runs just before COMMIT with the batch size; an
	// error from it is handled exactly like a failed COMMIT.
	beforeCommit func(n int) error
}

func newCommitter(s *Store) *committer {
	c := &committer{s: s}
	c.idle = sync.NewCond(&c.mu)
	return c
}

// submit queues w and waits for the commit that holds it (or for the append's own failure),
// writing that commit itself when no other append leads. Once queued, an append is always
// answered: the caller waits even if its context ends, so that it never reports a failure for
// a move that did commit.
func (c *committer) submit(ctx context.Context, w *appendWrite) error {
	p := &pending{ctx: ctx, w: w, done: make(chan error, 1), lead: make(chan struct{}, 1)}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return errClosed
	}
	c.queue = append(c.queue, p)
	first := !c.leading
	c.leading = true
	c.mu.Unlock()
	if !first {
		select {
		case err := <-p.done:
			return err
		case <-p.lead:
		}
	}
	c.lead()
	return <-p.done
}

// lead writes one batch, the oldest queued appends (the leader's own first among them), and
// then hands the lead to the oldest append queued meanwhile, or ends it.
func (c *committer) lead() {
	c.mu.Lock()
	n := min(len(c.queue), maxBatch)
	batch := append([]*pending(nil), c.queue[:n]...)
	c.queue = c.queue[n:]
	if len(c.queue) == 0 {
		c.queue = nil // let the old backing array go
	}
	c.mu.Unlock()
	c.commit(batch)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		c.leading = false
		c.idle.Broadcast()
		return
	}
	c.queue[0].lead <- struct{}{}
}

// close stops taking appends and waits until the queued ones are committed.
func (c *committer) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for c.leading {
		c.idle.Wait()
	}
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
