package sqlite

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/allfives/allfives/domain"
)

// Pipelined syncs at sync=full (docs/design.md, "Group commit and reads that never wait").
// With synchronous=FULL, SQLite's COMMIT writes the batch's frames to the WAL and then waits
// for their fsync, and the committer can start nothing meanwhile: at 7,000 moves/s that wait
// was most of a durable move's time. So the committer's own connection commits at
// synchronous=NORMAL, which in WAL mode writes the frames and returns, and a goroutine of its
// own, the syncer, fsyncs the WAL file and only then answers the batch's callers, while the
// committer already writes the next batch. One fsync covers every batch committed before it
// began, so batches that queue behind a running fsync share the next one.
//
// Two rules keep this as durable as FULL:
//   - No caller hears of its append before the fsync that covers it, and a failed fsync fails
//     every batch it was to cover and every batch after it (a page the kernel failed to write
//     may be dropped as clean, so a later fsync proves nothing): the store then refuses
//     appends and says it is not ready until it is opened again.
//   - What SQLite shows a reader at NORMAL may not be on disk yet, so every read of the read
//     pool waits, before it answers, until every batch it could have seen is synced (settle).
//     A read on a quiet store does not wait; under load it waits for at most one fsync. The
//     referee's cache is fed only by answered appends, so the reads it serves never wait.

// walSyncer fsyncs the WAL after the committer's commits and then answers their callers.
type walSyncer struct {
	path string   // the WAL file, <database>-wal
	file *os.File // opened at the first sync: SQLite creates the file with its first write
	// syncFile, when set (by tests only), replaces the fsync.
	syncFile func() error
	answer   func(b *syncBatch, err error) // the committer's: answers a batch's callers

	mu      sync.Mutex
	queue   []*syncBatch
	closed  bool
	failed  error         // the first fsync failure, for good
	wake    chan struct{} // capacity 1: "the queue is not empty"
	stopped chan struct{} // closed when the goroutine has returned
	once    sync.Once     // close's
	err     error         // close's answer

	visible atomic.Uint64 // batches whose COMMIT has begun: what a reader may see
	durable atomic.Uint64 // batches through which every commit is synced (or failed)
	waitMu  sync.Mutex
	synced  chan struct{} // closed and replaced each time durable moves on, under waitMu
}

// syncBatch is one committed batch waiting for its fsync: its number, its appends, each
// append's own error and the error of its transaction.
type syncBatch struct {
	seq  uint64
	live []*pending
	errs []error
	err  error
}

func newWALSyncer(dbPath string, answer func(*syncBatch, error)) *walSyncer {
	w := &walSyncer{path: dbPath + "-wal", answer: answer, wake: make(chan struct{}, 1),
		stopped: make(chan struct{}), synced: make(chan struct{})}
	go w.run()
	return w
}

// begin numbers the batch the committer is about to commit. It is called before the COMMIT,
// since readers may see the batch from the moment SQLite's COMMIT publishes it, before the
// call returns.
func (w *walSyncer) begin() uint64 { return w.visible.Add(1) }

// hand queues a batch whose transaction has ended (committed, or failed with b.err).
func (w *walSyncer) hand(b *syncBatch) {
	w.mu.Lock()
	w.queue = append(w.queue, b)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *walSyncer) run() {
	defer close(w.stopped)
	for {
		w.mu.Lock()
		batches, closed := w.queue, w.closed
		w.queue = nil
		w.mu.Unlock()
		if len(batches) == 0 {
			if closed {
				return
			}
			<-w.wake
			continue
		}
		err := w.sync(batches)
		w.advance(batches[len(batches)-1].seq)
		for _, b := range batches {
			w.answer(b, err)
		}
	}
}

// sync makes the batches durable: one fsync of the WAL, unless none of them committed
// anything. It returns the failure every one of them must be answered with.
func (w *walSyncer) sync(batches []*syncBatch) error {
	if err := w.broken(); err != nil {
		return err
	}
	need := false
	for _, b := range batches {
		need = need || b.err == nil
	}
	if !need {
		return nil
	}
	err := w.fsync()
	if err != nil {
		err = fmt.Errorf("%w: sync the WAL: %v", errSyncFailed, err)
		w.mu.Lock()
		w.failed = err
		w.mu.Unlock()
	}
	return err
}

// errSyncFailed marks a store whose WAL could not be synced: what it committed since the last
// good sync may not be on disk.
var errSyncFailed = fmt.Errorf("%w: the database's disk did not confirm a write; restart the server", domain.ErrStoreUnavailable)

func (w *walSyncer) fsync() error {
	if w.syncFile != nil {
		return w.syncFile()
	}
	if w.file == nil {
		f, err := os.Open(w.path)
		if err != nil {
			return err
		}
		w.file = f
	}
	return datasync(w.file)
}

// broken is the fsync failure that ended the store's appends, or nil.
func (w *walSyncer) broken() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.failed
}

// advance records that every batch through seq is settled and wakes the waiting readers.
func (w *walSyncer) advance(seq uint64) {
	w.waitMu.Lock()
	w.durable.Store(seq)
	close(w.synced)
	w.synced = make(chan struct{})
	w.waitMu.Unlock()
}

// settle waits until every batch a read that has ended could have seen is synced.
func (w *walSyncer) settle(ctx context.Context) error {
	target := w.visible.Load()
	for w.durable.Load() < target {
		w.waitMu.Lock()
		ch := w.synced
		w.waitMu.Unlock()
		if w.durable.Load() >= target {
			break
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return w.broken()
}

// close answers what is queued, waits for the goroutine and closes the WAL file. The
// committer has stopped before it is called, so nothing more is handed over.
// Calling it again returns the first answer.
func (w *walSyncer) close() error {
	w.once.Do(func() {
		w.mu.Lock()
		w.closed = true
		w.mu.Unlock()
		select {
		case w.wake <- struct{}{}:
		default:
		}
		<-w.stopped
		if w.file != nil {
			w.err = w.file.Close()
		}
	})
	return w.err
}

// settle is deferred by every read of what the committer writes (events, matches, seats,
// idempotency records): once the read is done, it waits until all it could have seen is
// synced, and fails the read (*errp) if that wait fails. The tables that only gorm's writer
// writes need it not: that writer commits at FULL, whose fsync comes before its commit shows.
func (s *Store) settle(ctx context.Context, errp *error) {
	if s.ws == nil || *errp != nil {
		return
	}
	*errp = s.ws.settle(ctx)
}
