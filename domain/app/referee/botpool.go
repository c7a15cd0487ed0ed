package referee

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/allfives/allfives/domain"
)

// DefaultBotWorkers is the bot pool's size unless configured: one fewer than the CPUs, at least
// one. Bot turns are pure computation; with every CPU busy on them, requests wait for a CPU
// behind them (BenchmarkBotOnlyCreate shows it in /healthz's tail), so one CPU is kept for
// answering requests.
func DefaultBotWorkers() int { return max(1, runtime.NumCPU()-1) }

// botChunkSteps bounds the bot turns of one append off the request path: the match's lock is
// released between appends, so reads of the match and its stream see it progress, and the
// workers take turns among the matches waiting (docs/api-matches.md, "Matches of bots").
const botChunkSteps = 64

// botRetry is how long a match whose bot work failed (a busy or full store) waits before it is
// tried again.
const botRetry = time.Second

// botPool plays the matches no human is left to act in, off the request path, with a fixed
// number of workers: a match waits in the queue until a worker is free, whatever the number of
// matches created at once (docs/api-matches.md, "Matches of bots").
type botPool struct {
	svc    *MatchService
	log    *slog.Logger
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	queue    []string        // match ids waiting for a worker, oldest first
	pending  map[string]bool // queued or being played
	limit    int             // most matches created into pending at once (limits.go); 0: no bound
	reserved int             // places taken by creates not yet submitted
	ready    chan struct{}   // a signal that the queue has work
	idle     chan struct{}   // closed while nothing is pending
}

func newBotPool(svc *MatchService, workers, limit int, log *slog.Logger) *botPool {
	ctx, cancel := context.WithCancel(context.Background())
	p := &botPool{svc: svc, log: log, ctx: ctx, cancel: cancel, pending: map[string]bool{}, limit: limit,
		ready: make(chan struct{}, 1), idle: make(chan struct{})}
	close(p.idle)
	p.wg.Add(workers)
	for range workers {
		go p.work()
	}
	return p
}

// submit queues match id unless it is queued or being played already.
func (p *botPool) submit(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending[id] {
		return
	}
	if len(p.pending) == 0 {
		p.idle = make(chan struct{})
	}
	p.pending[id] = true
	p.push(id)
}

// push adds id to the queue's end and signals a worker; the caller holds mu.
func (p *botPool) push(id string) {
	p.queue = append(p.queue, id)
	select {
	case p.ready <- struct{}{}:
	default:
	}
}

// next takes the oldest queued id, or waits for one; ok is false once the pool closes.
func (p *botPool) next() (id string, ok bool) {
	for {
		p.mu.Lock()
		if len(p.queue) > 0 {
			id, p.queue = p.queue[0], p.queue[1:]
			more := len(p.queue) > 0
			p.mu.Unlock()
			if more { // pass the signal on, so idle workers share the queue
				select {
				case p.ready <- struct{}{}:
				default:
				}
			}
			return id, true
		}
		p.mu.Unlock()
		select {
		case <-p.ctx.Done():
			return "", false
		case <-p.ready:
		}
	}
}

// done ends a match's turn at a worker: queued again at the end when it has more bot work, so
// that every waiting match gets its turn, else forgotten.
func (p *botPool) done(id string, again bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if again && p.ctx.Err() == nil {
		p.push(id)
		return
	}
	delete(p.pending, id)
	if len(p.pending) == 0 {
		close(p.idle)
	}
}

func (p *botPool) work() {
	defer p.wg.Done()
	for {
		id, ok := p.next()
		if !ok {
			return
		}
		more, err := p.svc.botChunk(p.ctx, id)
		switch {
		case err != nil && p.ctx.Err() != nil:
			p.done(id, false)
		case err != nil:
			// The store failed (busy, full): try again later rather than spin.
			p.log.Warn("bot turns failed; retrying", "match", id, "err", err, "retry", botRetry.String())
			p.done(id, false)
			time.AfterFunc(botRetry, func() {
				if p.ctx.Err() == nil {
					p.submit(id)
				}
			})
		default:
			p.done(id, more)
		}
	}
}

// close stops the workers after the chunk each is playing; unfinished work stays in the store
// and is picked up by ResumeBots after a restart.
func (p *botPool) close() {
	p.cancel()
	p.wg.Wait()
}

// botChunk plays up to botChunkSteps bot turns of match id, stopping early at the end of a
// hand, and stores them in one append with one time. more says whether bots still have turns.
func (s *MatchService) botChunk(ctx context.Context, id string) (more bool, err error) {
	e, err := s.acquire(ctx, id)
	if err != nil {
		return false, err
	}
	defer s.release(e)
	if !botsOnly(e.match) {
		return false, nil
	}
	m, work, now := e.match, e.working(), s.clock.Now()
	var events []domain.Event
	for step := 0; step < botChunkSteps && !work.match.Finished(); step++ {
		seat := work.match.Turn()
		// Not paced: nobody sits at a match of bots only to time it, and the pool's workers
		// must not sleep. A resigned seat moves as AutoMove says, which the audit re-checks.
		var batch []domain.Event
		if work.match.OnAutoplay(seat) {
			batch, err = work.play(seat, work.match.AutoMove(seat, work.hands, s.chooser(ctx)), now)
		} else {
			batch, err = s.botTurn(ctx, work, seat, work.match.Player(seat).Bot, now, time.Time{})
		}
		if err != nil {
			return false, err
		}
		events = append(events, batch...)
		if endsHand(batch) {
			break
		}
		// Bot turns are pure computation: let the requests waiting for a CPU run between them.
		runtime.Gosched()
	}
	if len(events) == 0 {
		return false, nil
	}
	err = s.store.Append(ctx, Append{MatchID: id, Expected: m.Version(), Events: events, Summary: work.match.Summary()})
	if errors.Is(err, domain.ErrVersionConflict) {
		s.cache.drop(e) // another process moved it: read it afresh next time
		return true, nil
	}
	if err != nil {
		return false, err
	}
	e.set(work)
	s.watch.wake(id)
	return !work.match.Finished(), nil
}

func endsHand(events []domain.Event) bool {
	for _, e := range events {
		if e.Type == domain.TypeHandEnded {
			return true
		}
	}
	return false
}

// botsOnly says whether match m is live with no human seat left to play, every seat a bot's or
// resigned: nobody but its bots will ever move it, so the pool plays it.
func botsOnly(m *domain.Match) bool {
	if m.Closed() {
		return false
	}
	for seat, p := range m.Players() {
		if p.Kind != domain.Bot && !m.Resigned(seat) {
			return false
		}
	}
	return true
}

// ResumeBots queues every stored live match of bots only for the pool, and hands the pacer
// every one with a human whose bot is to move, as after a restart: the work a stopped server
// left unfinished goes on. It returns how many it resumed.
func (s *MatchService) ResumeBots(ctx context.Context) (int, error) {
	n := 0
	q := HistoryQuery{Status: domain.StatusInProgress, Limit: 100}
	for {
		page, err := s.store.History(ctx, q)
		if err != nil {
			return n, err
		}
		for _, it := range page.Matches {
			if s.resume(ctx, it.ID) {
				n++
			}
		}
		if page.NextCursor == "" {
			return n, nil
		}
		q.Cursor = page.NextCursor
	}
}

// resume hands match id to the pool when it is live with bots only, or to the pacer when a bot
// is to move beside a human, and says whether it did. It reads the published state, not under
// the match's lock, which a runner may hold through a pause. A match that cannot be loaded is
// logged and left alone: its own reads say why.
func (s *MatchService) resume(ctx context.Context, id string) bool {
	snap, err := s.snapshot(ctx, id)
	if err != nil {
		s.log.Error("resume bots: match cannot be loaded", "match", id, "err", err)
		return false
	}
	switch m := snap.match; {
	case s.pool != nil && botsOnly(m):
		s.pool.submit(id)
	case pacedDue(m):
		s.pacer.submit(id, time.Now())
	default:
		return false
	}
	return true
}
