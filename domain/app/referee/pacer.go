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

// pacer plays the turns of Paced bots in matches with a human, after the command they follow
// has been stored and answered: a move's answer never waits for a paced decision, and each
// decision is still held to its floor, counted from the commit it answers (docs/api-matches.md,
// "Timing"). Each match has at most one runner at a time, a goroutine that mostly waits out the
// floor; its appends are published as any append is. Close cancels the runners between
// decisions, storing nothing of the turns they were playing; ResumeBots hands the pacer the
// matches left with a paced bot to move after a restart.
type pacer struct {
	svc    *MatchService
	log    *slog.Logger
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	running map[string]bool // matches with a runner
	again   map[string]bool // matches submitted again while their runner ran
	idle    chan struct{}   // closed while no runner runs
}

func newPacer(svc *MatchService, log *slog.Logger) *pacer {
	ctx, cancel := context.WithCancel(context.Background())
	p := &pacer{svc: svc, log: log, ctx: ctx, cancel: cancel,
		running: map[string]bool{}, again: map[string]bool{}, idle: make(chan struct{})}
	close(p.idle)
	return p
}

// submit starts a runner for match id, whose last commit was at since, unless one runs: that
// one then looks at the match again before it stops.
func (p *pacer) submit(id string, since time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx.Err() != nil {
		return
	}
	if p.running[id] {
		p.again[id] = true
		return
	}
	if len(p.running) == 0 {
		p.idle = make(chan struct{})
	}
	p.running[id] = true
	p.wg.Add(1)
	go p.run(id, since)
}

// start starts a runner for match id as submit does, unless one runs: that one is left alone.
func (p *pacer) start(id string, since time.Time) {
	p.mu.Lock()
	running := p.running[id]
	p.mu.Unlock()
	if !running {
		p.submit(id, since)
	}
}

// run plays match id's paced turns, a hand at most per append, until a human is to move.
func (p *pacer) run(id string, since time.Time) {
	defer p.wg.Done()
	for {
		more, at, err := p.svc.pacedChunk(p.ctx, id, since)
		switch {
		case err != nil && p.ctx.Err() != nil:
			more = false
		case err != nil:
			// The store failed (busy, full): try again later rather than spin.
			p.log.Warn("paced bot turns failed; retrying", "match", id, "err", err, "retry", botRetry.String())
			more = false
			time.AfterFunc(botRetry, func() { p.submit(id, time.Now()) })
		}
		since = at
		if more || p.stop(id) {
			continue
		}
		return
	}
}

// stop ends id's runner unless the match was submitted again meanwhile (true: run on).
func (p *pacer) stop(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.again[id] && p.ctx.Err() == nil {
		delete(p.again, id)
		return true
	}
	delete(p.again, id)
	delete(p.running, id)
	if len(p.running) == 0 {
		close(p.idle)
	}
	return false
}

// wait blocks until no runner runs, or ctx ends.
func (p *pacer) wait(ctx context.Context) error {
	p.mu.Lock()
	idle := p.idle
	p.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WaitPaced blocks until no paced turn is being played (the pacer is idle), or ctx ends: what a
// test waits for after a move whose answer left a paced bot to move.
func (s *MatchService) WaitPaced(ctx context.Context) error { return s.pacer.wait(ctx) }

func (p *pacer) close() {
	p.cancel()
	p.wg.Wait()
}

// pacedDue says whether match m has a human seat and a bot (or a seat on autoplay) to move:
// what the commands leave to the pacer.
func pacedDue(m *domain.Match) bool {
	seat := m.Turn()
	if seat < 0 || m.Closed() || !hasHuman(m) {
		return false
	}
	return m.Player(seat).Kind == domain.Bot || m.OnAutoplay(seat)
}

// pacerGrace is how long a paced bot may stay to move, since the match's last commit, before a
// read of the match here starts a runner for it. It is far longer than any floor, so the
// instance that stored the move, whose runner is already playing the reply, always answers
// first; another instance steps in only when that one stopped or died with the reply unplayed,
// so that the match goes on without waiting for a restart's ResumeBots.
const pacerGrace = 5 * time.Second

// nudge starts a runner for match id, read at m, when a paced bot has been due there for longer
// than pacerGrace and none runs here. The reads call it; it never delays their answer.
func (s *MatchService) nudge(id string, m *domain.Match) {
	if !pacedDue(m) || (s.pool != nil && botsOnly(m)) || s.clock.Now().Sub(m.UpdatedAt()) < pacerGrace {
		return
	}
	s.pacer.start(id, time.Now())
}

// handOn gives the pacer match id when a command left it a bot's turn; committed is when that
// command's append was stored, from which the first paced decision's floor counts.
func (s *MatchService) handOn(id string, m *domain.Match, committed time.Time) {
	if pacedDue(m) && !(s.pool != nil && botsOnly(m)) {
		s.pacer.submit(id, committed)
	}
}

// pacedChunk plays the bot turns of match id until a human is to move, the match ends or a hand
// does, each paced decision held to its floor from since (the first) or from the end of the
// one before, and stores them in one append with one time: the time the runner took them up.
// more says whether bots still have turns; at is when the append was stored.
func (s *MatchService) pacedChunk(ctx context.Context, id string, since time.Time) (more bool, at time.Time, err error) {
	e, err := s.acquire(ctx, id)
	if err != nil {
		return false, since, err
	}
	defer s.release(e)
	if !pacedDue(e.match) || (s.pool != nil && botsOnly(e.match)) {
		return false, since, nil
	}
	m, work, now := e.match, e.working(), s.clock.Now()
	var events []domain.Event
	for step := 0; step < botChunkSteps && pacedDue(work.match); step++ {
		seat := work.match.Turn()
		var batch []domain.Event
		if work.match.OnAutoplay(seat) {
			batch, err = work.play(seat, work.match.AutoMove(seat, work.hands, s.chooser(ctx)), now)
		} else {
			name := work.match.Player(seat).Bot
			batch, err = s.botTurn(ctx, work, seat, name, now, since)
			if s.paced(name) {
				since = time.Now() // the next paced decision answers this one
			}
		}
		if err != nil {
			return false, since, err
		}
		events = append(events, batch...)
		if endsHand(batch) {
			break
		}
		runtime.Gosched()
	}
	if len(events) == 0 {
		return false, since, nil
	}
	err = s.store.Append(ctx, Append{MatchID: id, Expected: m.Version(), Events: events, Summary: work.match.Summary()})
	if errors.Is(err, domain.ErrVersionConflict) {
		s.cache.drop(e) // another process moved it: read it afresh and look again
		return true, time.Now(), nil
	}
	if err != nil {
		return false, since, err
	}
	e.set(work)
	s.watch.wake(id)
	return pacedDue(work.match), time.Now(), nil
}

// WaitBots blocks until no match is queued for or being played by the bot pool and no paced
// turn is being played by the pacer, or ctx ends.
func (s *MatchService) WaitBots(ctx context.Context) error {
	if err := s.pacer.wait(ctx); err != nil {
		return err
	}
	if s.pool == nil {
		return nil
	}
	s.pool.mu.Lock()
	idle := s.pool.idle
	s.pool.mu.Unlock()
	select {
	case <-idle:
	case <-ctx.Done():
		return ctx.Err()
	}
	// A match the pool finished may have handed the pacer nothing, but a paced turn a command
	// left meanwhile may run: wait for it too.
	return s.pacer.wait(ctx)
}

// Close stops the pacer's runners and the bot pool's workers. Matches they leave unfinished are
// resumed by ResumeBots after a restart.
func (s *MatchService) Close() {
	s.pacer.close()
	if s.pool != nil {
		s.pool.close()
	}
}
