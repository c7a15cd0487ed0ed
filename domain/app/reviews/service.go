// Package reviews is the application layer of game review (docs/review.md, "API"): it
// computes a finished match's review off the request path, with a fixed number of workers
// and a bounded queue, stores the answer once per match and method, and answers it from the
// store ever after. The engine is domain/analysis; the log comes from the referee.
package reviews

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
)

// DefaultQueue is how many reviews may wait for a worker unless configured: a review takes
// seconds of CPU (docs/review.md, "Benchmarks"), so more waiting would only be answered late.
const DefaultQueue = 32

// DefaultPerClient is serve's bound on the reviews one client may have queued or being
// computed (Config.PerClient) unless configured: with the queue's 32, it takes sixteen
// clients to fill it.
const DefaultPerClient = 2

// RetryAfter is the Retry-After, in seconds, of a refusal for a full queue: about the time
// one review takes on one core.
const RetryAfter = 10

// CodeReviewNotFound: no review of the match was asked for (docs/review.md, "API").
const CodeReviewNotFound domain.Code = "REVIEW_NOT_FOUND"

// ErrNotRequested: no review of the match was asked for (with this method).
var ErrNotRequested = domain.NewError(CodeReviewNotFound, "no review of this match was asked for: POST to this path asks for one")

// ErrQueueFull: as many reviews are waiting as the queue holds.
var ErrQueueFull = errors.New("the review queue is full; try again shortly")

// Engine computes a review: analysis.Review, which tests wrap to hold a worker.
type Engine func(ctx context.Context, events []domain.Event, opts analysis.Options) (*analysis.Result, error)

// Config wires a Service. Zero fields take the defaults.
type Config struct {
	Store   Store   // required
	Matches Matches // required: the referee
	Workers int     // reviews computed at once; default 1
	Queue   int     // reviews waiting for a worker; default DefaultQueue
	// PerClient is how many reviews one asker's key may have queued or being computed at
	// once (Asker); 0: no bound.
	PerClient int
	// Options are the engine's budgets; the zero value is the method's defaults. They are in
	// the method string, so a review stored under other budgets is another review.
	Options analysis.Options
	Engine  Engine // default analysis.Review
	// Reviewed, when set, is told of every review this service stores done, with the match's
	// whole log: the puzzles are made there (domain/app/puzzles). Its error is logged; the
	// review stays stored.
	Reviewed func(ctx context.Context, id string, events []domain.Event, res *analysis.Result) error
	Clock    func() time.Time // default the wall clock in UTC
	Logger   *slog.Logger     // default slog.Default()
}

// Service asks for, computes and answers reviews. It is safe for concurrent use.
type Service struct {
	store   Store
	matches Matches
	opts    analysis.Options
	method  string
	engine  Engine
	told    func(ctx context.Context, id string, events []domain.Event, res *analysis.Result) error
	clock   func() time.Time
	log     *slog.Logger
	ctx     context.Context // the workers'; ends with Close
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	jobs    chan string // match ids for the workers; never blocks, queued bounds it

	mu       sync.Mutex
	inflight map[string]bool // queued or being computed here
	queued   int             // waiting for a worker
	limit    int
	// perClient bounds running, the reviews in flight per asker's key; owners are the keys
	// each review in flight counts against.
	perClient int
	running   map[string]int
	owners    map[string][]string
	idle      chan struct{} // closed while nothing is in flight

	// explorers holds a place per exploration being computed (as many as workers);
	// exploreWaiting counts those waiting for one, exploring those in flight per asker's key.
	explorers      chan struct{}
	exploreWaiting int
	exploring      map[string]int
}

// New starts a Service's workers; Close stops them.
func New(cfg Config) *Service {
	if cfg.Store == nil || cfg.Matches == nil {
		panic("reviewer: Config.Store and Config.Matches are required")
	}
	cfg.Workers, cfg.Queue = max(cfg.Workers, 1), max(cfg.Queue, 0)
	if cfg.Queue == 0 {
		cfg.Queue = DefaultQueue
	}
	if cfg.Engine == nil {
		cfg.Engine = analysis.Review
	}
	if cfg.Clock == nil {
		cfg.Clock = func() time.Time { return time.Now().UTC() }
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Service{
		store: cfg.Store, matches: cfg.Matches, opts: cfg.Options, method: cfg.Options.Method(),
		engine: cfg.Engine, told: cfg.Reviewed, clock: cfg.Clock, log: cfg.Logger, ctx: ctx, cancel: cancel,
		jobs: make(chan string, cfg.Queue), inflight: map[string]bool{}, limit: cfg.Queue,
		idle: make(chan struct{}), perClient: max(cfg.PerClient, 0), running: map[string]int{}, owners: map[string][]string{},
		explorers: make(chan struct{}, cfg.Workers), exploring: map[string]int{},
	}
	close(s.idle)
	s.wg.Add(cfg.Workers)
	for range cfg.Workers {
		go s.work()
	}
	return s
}

// Method is the method string of the reviews this service computes.
func (s *Service) Method() string { return s.method }

// Answer is a review as the API answers it: running, or done with its JSON.
type Answer struct {
	Status Status
	Result []byte // done only: the stored JSON, to serve verbatim
}

var running = Answer{Status: StatusRunning}

// Request asks for match id's review: the stored answer when it is done, else running, with
// the review queued unless this instance is computing it already. A sealed match is
// domain.ErrMatchSealed; one not played to its end (live, never dealt, cancelled)
// domain.ErrMatchNotFinished; a full queue ErrQueueFull.
func (s *Service) Request(ctx context.Context, id string) (Answer, error) {
	return s.RequestBy(ctx, id, Asker{})
}

// RequestBy is Request asked by who: a review it would queue counts against who's limits,
// and is refused with ErrTooManyRunning or Admit's error beyond them.
func (s *Service) RequestBy(ctx context.Context, id string, who Asker) (Answer, error) {
	rec, ok, busy, err := s.lookup(ctx, id)
	switch {
	case err != nil:
		return Answer{}, err
	case busy:
		return running, nil
	case ok && rec.Status == StatusDone:
		return Answer{Status: StatusDone, Result: rec.Result}, nil
	}
	return s.start(ctx, id, who) // never asked, failed before, or left running by a stopped worker
}

// lookup is what RequestBy and GetBy read first: the match must be finished; a review this
// instance is computing is busy, without a read of the store; else the stored record, if any.
func (s *Service) lookup(ctx context.Context, id string) (rec Record, ok, busy bool, err error) {
	if err = s.finished(ctx, id); err != nil {
		return rec, false, false, err
	}
	if s.busyWith(id) {
		return rec, false, true, nil
	}
	rec, ok, err = s.store.Review(ctx, id, s.method)
	return rec, ok, false, err
}

// finished is nil for a match played to its end that its round no longer seals, else why
// it has no review (docs/review.md, "API"): the seal first (ErrMatchSealed, whatever the
// match's state: a review of a sealed match waits for its round), then the status
// (ErrMatchNotFinished: live, or never dealt, or cancelled), or why the match cannot be read
// (not found, a corrupt record). Nothing is queued or stored before it passes.
func (s *Service) finished(ctx context.Context, id string) error {
	if sl, ok := s.matches.(Sealer); ok {
		sealed, err := sl.Sealed(ctx, id)
		switch {
		case err != nil:
			return err
		case sealed:
			return domain.ErrMatchSealed
		}
	}
	st, err := s.matches.StatusOf(ctx, id)
	if err != nil {
		return err
	}
	return notFinished(st)
}

// notFinished is nil for a finished match, else domain.ErrMatchNotFinished saying what the
// match is instead.
func notFinished(st domain.Status) error {
	why := ""
	switch st {
	case domain.StatusFinished:
		return nil
	case domain.StatusWaiting:
		why = ", and this one waits for a seat: it has not been dealt"
	case domain.StatusExpired:
		why = ", and this one expired before it was dealt"
	case domain.StatusCancelled:
		why = ", and this one was cancelled before it was played to its end"
	}
	return fmt.Errorf("%w: only a finished match can be reviewed%s", domain.ErrMatchNotFinished, why)
}

func (s *Service) busyWith(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inflight[id]
}

// start queues match id's review: one job however many ask (in flight here, it is
// answered running), a place in the queue reserved before the store records it running, so
// that a full queue refuses without writing anything.
func (s *Service) start(ctx context.Context, id string, who Asker) (Answer, error) {
	s.mu.Lock()
	switch {
	case s.inflight[id]:
		s.mu.Unlock()
		return running, nil
	case s.queued >= s.limit:
		s.mu.Unlock()
		return Answer{}, ErrQueueFull
	}
	if err := s.admit(who); err != nil {
		s.mu.Unlock()
		return Answer{}, err
	}
	if len(s.inflight) == 0 {
		s.idle = make(chan struct{})
	}
	s.inflight[id] = true
	s.queued++
	s.count(id, who)
	s.mu.Unlock()
	rec, started, err := s.store.StartReview(ctx, id, s.method, s.clock())
	if err != nil || !started {
		s.mu.Lock()
		s.queued--
		s.drop(id)
		s.mu.Unlock()
		if err != nil {
			return Answer{}, err
		}
		return Answer{Status: StatusDone, Result: rec.Result}, nil // another instance finished it
	}
	s.jobs <- id // never blocks: the reservation above holds a place
	return running, nil
}

// drop forgets id in flight, and its count against its asker's keys; the caller holds mu.
func (s *Service) drop(id string) {
	s.uncount(id)
	delete(s.inflight, id)
	if len(s.inflight) == 0 {
		close(s.idle)
	}
}

// Wait returns once no review is queued or being computed here, or when ctx ends.
func (s *Service) Wait(ctx context.Context) error {
	s.mu.Lock()
	idle := s.idle
	s.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops the workers: a review being computed is abandoned and stays stored as running,
// to be computed again when next asked for.
func (s *Service) Close() {
	s.cancel()
	s.wg.Wait()
}
