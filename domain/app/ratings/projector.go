package ratings

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/domain/openskill"
)

// DefaultBatch is how many queued matches one transaction of the projection rates.
const DefaultBatch = 100

// Config wires a Projector.
type Config struct {
	Store Store
	Logs  LogReader
	// Model is the rating model; the zero value means openskill.Default().
	Model openskill.Model
	// Batch is how many matches one transaction rates; 0 means DefaultBatch.
	Batch int
	// Logger receives the matches left unrated for a log that cannot be read as one; nil
	// discards it.
	Logger *slog.Logger
}

// Projector rates finished rated matches in the order they ended, (ended_at, id), each
// exactly once (docs/ratings.md, "The projection"). The store queues every rated match that
// ends in the transaction that stores its match.ended; the projector takes matches off the
// queue in the transaction that writes their ratings, so a crash between the two leaves the
// match queued, and a match is never rated twice. A match whose end commits after a later one
// was rated (two instances committing at once) rewinds the ratings to it and rates it and
// those after it again, so the table is always what the order of ends gives.
type Projector struct {
	store Store
	logs  LogReader
	model openskill.Model
	batch int
	log   *slog.Logger
	// rewinds counts the rewinds this projector made, for tests and metrics.
	rewinds atomic.Int64
}

// Rewinds is how many times this projector took ratings back to rate a match that ended
// before the last one rated.
func (p *Projector) Rewinds() int64 { return p.rewinds.Load() }

// NewProjector returns the projection over cfg.Store.
func NewProjector(cfg Config) *Projector {
	if cfg.Model == (openskill.Model{}) {
		cfg.Model = openskill.Default()
	}
	if cfg.Batch <= 0 {
		cfg.Batch = DefaultBatch
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Projector{store: cfg.Store, logs: cfg.Logs, model: cfg.Model, batch: cfg.Batch, log: cfg.Logger}
}

// RunOnce rates the queued matches, a batch per transaction, until the queue is empty or
// another instance holds the projection's lock, and returns how many it rated or skipped.
func (p *Projector) RunOnce(ctx context.Context) (int, error) {
	n, _, err := p.run(ctx)
	return n, err
}

// Drain is RunOnce until this projector has seen the queue empty, waiting while another
// instance holds the lock: once it returns, every match that ended before it was called is
// rated.
func (p *Projector) Drain(ctx context.Context) (int, error) {
	total := 0
	for {
		n, empty, err := p.run(ctx)
		total += n
		if err != nil || empty {
			return total, err
		}
		select {
		case <-ctx.Done():
			return total, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// run is RunOnce, saying also whether it stopped on an empty queue (rather than another
// instance's lock).
func (p *Projector) run(ctx context.Context) (total int, empty bool, err error) {
	for {
		n, queued := 0, false
		ran, err := p.store.Project(ctx, func(tx Tx) error {
			var err error
			n, queued, err = p.batchOnce(ctx, tx)
			return err
		})
		if err != nil || !ran {
			return total, false, err
		}
		if !queued {
			return total, true, nil
		}
		total += n
	}
}

// Run calls RunOnce every interval until ctx ends, reporting failures to onErr.
func (p *Projector) Run(ctx context.Context, every time.Duration, onErr func(error)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := p.RunOnce(ctx); err != nil && ctx.Err() == nil && onErr != nil {
			onErr(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// batchOnce rates up to a batch of queued matches in tx, first rewinding when the queue's
// first match ended before the last one rated. It reports whether the queue had any.
//
// At READ COMMITTED (PostgreSQL) each statement sees the ends committed before it, so an
// end may appear in the queue during the transaction, before the last match rated: the
// batch stops there, and the next one rewinds for it.
func (p *Projector) batchOnce(ctx context.Context, tx Tx) (int, bool, error) {
	pending, err := tx.Pending(ctx, p.batch)
	if err != nil || len(pending) == 0 {
		return 0, false, err
	}
	last, ok, err := tx.Last(ctx)
	if err != nil {
		return 0, true, err
	}
	if ok && pending[0].Key.Compare(last) < 0 {
		if err := p.rewind(ctx, tx, pending[0].Key); err != nil {
			return 0, true, err
		}
		if last, ok, err = tx.Last(ctx); err != nil {
			return 0, true, err
		}
		if pending, err = tx.Pending(ctx, p.batch); err != nil {
			return 0, true, err
		}
	}
	// The batch: the matches in order, as far as the last one rated allows.
	cut := len(pending)
	for i, q := range pending {
		if ok && q.Key.Compare(last) < 0 {
			cut = i
			break
		}
		last, ok = q.Key, true
	}
	pending = pending[:cut]
	if len(pending) == 0 {
		return 0, true, nil
	}
	results, err := p.results(ctx, pending)
	if err != nil {
		return 0, true, err
	}
	// Every standing the batch needs, read once per format; then rated in order in memory
	// and written in one go.
	need := map[Format][]string{}
	for _, r := range results {
		if r.ok {
			need[r.res.Format] = append(need[r.res.Format], r.res.Players()...)
		}
	}
	state := map[standingKey]Standing{}
	for f, players := range need {
		slices.Sort(players)
		got, err := tx.Standings(ctx, f, slices.Compact(players))
		if err != nil {
			return 0, true, err
		}
		for id, st := range got {
			state[standingKey{id, f}] = st
		}
	}
	var changes []Change
	touched := map[standingKey]bool{}
	for i, r := range results {
		if !r.ok {
			continue
		}
		before := map[string]Standing{}
		for _, id := range r.res.Players() {
			if st, ok := state[standingKey{id, r.res.Format}]; ok {
				before[id] = st
			}
		}
		cs, standings, err := RateStanding(p.model, r.res, before)
		if err != nil {
			p.log.Error("a rated match left unrated", "match_id", pending[i].MatchID, "err", err)
			continue
		}
		for _, st := range standings {
			k := standingKey{st.Player, st.Format}
			state[k], touched[k] = st, true
		}
		changes = append(changes, cs...)
	}
	var standings []Standing
	for k := range touched {
		standings = append(standings, state[k])
	}
	slices.SortFunc(standings, CompareStandings)
	if err := tx.Record(ctx, pending, changes, standings); err != nil {
		return 0, true, err
	}
	return len(pending), true, nil
}

// fetched is one queued match's result as read from its log; ok is false when it is not
// rated after all.
type fetched struct {
	res Result
	ok  bool
}

// readers is how many logs the projection reads at once.
const readers = 4

// results reads the results of pending from their logs, a few at a time.
func (p *Projector) results(ctx context.Context, pending []Queued) ([]fetched, error) {
	out := make([]fetched, len(pending))
	errs := make([]error, len(pending))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(readers, len(pending)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i].res, out[i].ok, errs[i] = p.result(ctx, pending[i])
			}
		}()
	}
	for i := range pending {
		next <- i
	}
	close(next)
	wg.Wait()
	return out, errors.Join(errs...)
}

// headEvents is how many events are read from the start of a log for its seats: the
// match.created and the joins and leaves before the first deal are almost always fewer.
const headEvents = 16

// result reads q's result from its log: the opening events up to the first deal, and the
// match.ended. A log that cannot be read as a rated match's (a corrupt record) is false, and
// logged; a store that fails is an error, and the match stays queued.
func (p *Projector) result(ctx context.Context, q Queued) (Result, bool, error) {
	if er, ok := p.logs.(EndReader); ok {
		evs, err := er.OpeningAndEnd(ctx, q.MatchID, headEvents, q.EndSeq)
		if err == nil && len(evs) > 0 && (dealt(evs[:len(evs)-1]) || len(evs) == q.EndSeq) {
			return p.resultOf(q, evs)
		}
		if err != nil && !errors.Is(err, storeerr.ErrRecordCorrupt) {
			return Result{}, false, fmt.Errorf("read the log of %s: %w", q.MatchID, err)
		}
	}
	evs, err := p.logs.Events(ctx, q.MatchID, 0, headEvents)
	for err == nil && len(evs)%headEvents == 0 && len(evs) > 0 && !dealt(evs) {
		var more []domain.Event
		more, err = p.logs.Events(ctx, q.MatchID, len(evs), headEvents)
		if len(more) == 0 {
			break
		}
		evs = append(evs, more...)
	}
	if err == nil && len(evs) < q.EndSeq {
		var end []domain.Event
		end, err = p.logs.Events(ctx, q.MatchID, q.EndSeq-1, 1)
		evs = append(evs, end...)
	}
	if err != nil {
		if errors.Is(err, storeerr.ErrRecordCorrupt) || errors.Is(err, domain.ErrMatchNotFound) {
			p.log.Error("a rated match left unrated", "match_id", q.MatchID, "err", err)
			return Result{}, false, nil
		}
		return Result{}, false, fmt.Errorf("read the log of %s: %w", q.MatchID, err)
	}
	return p.resultOf(q, evs)
}

// resultOf reads q's result from evs, its opening events and its end.
func (p *Projector) resultOf(q Queued, evs []domain.Event) (Result, bool, error) {
	res, ok, err := ResultOf(q.MatchID, evs)
	if err != nil {
		p.log.Error("a rated match left unrated", "match_id", q.MatchID, "err", err)
		return Result{}, false, nil
	}
	res.Key = q.Key // the store's key, which orders the queue
	return res, ok, nil
}

// dealt says whether evs reach the first deal (or the end), after which no seat changes.
func dealt(evs []domain.Event) bool {
	return slices.ContainsFunc(evs, func(e domain.Event) bool {
		return e.Type == domain.TypeHandStarted || e.Type == domain.TypeMatchEnded
	})
}

// standingKey names a standing.
type standingKey struct {
	player string
	format Format
}

// rewind takes back, in tx, every match rated after k: each change, latest first, puts its
// player's standing back to what it was before.
func (p *Projector) rewind(ctx context.Context, tx Tx, k Key) error {
	changes, err := tx.ChangesAfter(ctx, k)
	if err != nil {
		return err
	}
	byFormat := map[Format][]string{}
	for _, c := range changes {
		byFormat[c.Format] = append(byFormat[c.Format], c.Player)
	}
	state := map[standingKey]Standing{}
	for f, players := range byFormat {
		slices.Sort(players)
		got, err := tx.Standings(ctx, f, slices.Compact(players))
		if err != nil {
			return err
		}
		for id, st := range got {
			state[standingKey{id, f}] = st
		}
	}
	for _, c := range changes {
		if err := takeBack(state, c); err != nil {
			return err
		}
	}
	var restore, drop []Standing
	for _, st := range sortedStandings(state) {
		if st.Matches > 0 {
			restore = append(restore, st)
		} else {
			drop = append(drop, st)
		}
	}
	p.log.Info("ratings rewound for a match that ended before the last one rated", "match_id", k.MatchID, "matches_again", len(changes))
	if err := tx.Rewind(ctx, k, restore, drop); err != nil {
		return err
	}
	p.rewinds.Add(1) // counted even if the transaction later rolls back: an estimate
	return nil
}

// sortedStandings lists state in (player, format) order.
func sortedStandings(state map[standingKey]Standing) []Standing {
	out := make([]Standing, 0, len(state))
	for _, st := range state {
		out = append(out, st)
	}
	slices.SortFunc(out, CompareStandings)
	return out
}

// CompareStandings orders standings by player, then format.
func CompareStandings(a, b Standing) int {
	return cmp.Or(cmp.Compare(a.Player, b.Player), cmp.Compare(a.Format, b.Format))
}

// CompareChanges orders changes by key, then player.
func CompareChanges(a, b Change) int {
	return cmp.Or(a.Key.Compare(b.Key), cmp.Compare(a.Player, b.Player))
}

// Rebuilt is every rating computed again from the logs.
type Rebuilt struct {
	Done      []Queued // every rated match that ended, in Key order (those left unrated too)
	Changes   []Change // in CompareChanges order
	Standings []Standing
}

// Rebuild computes every rating from the logs alone: the matches the logs say are rated and
// ended, in Key order, each rated as the projection rates it. It writes nothing.
func (p *Projector) Rebuild(ctx context.Context) (Rebuilt, error) {
	ends, err := p.store.RatedEnds(ctx)
	if err != nil {
		return Rebuilt{}, err
	}
	slices.SortFunc(ends, func(a, b Queued) int { return a.Key.Compare(b.Key) })
	out := Rebuilt{Done: ends}
	state := map[standingKey]Standing{}
	for _, q := range ends {
		res, ok, err := p.result(ctx, q)
		if err != nil {
			return Rebuilt{}, err
		}
		if !ok {
			continue
		}
		before := map[string]Standing{}
		for _, id := range res.Players() {
			if st, ok := state[standingKey{id, res.Format}]; ok {
				before[id] = st
			}
		}
		changes, standings, err := RateStanding(p.model, res, before)
		if err != nil {
			p.log.Error("a rated match left unrated", "match_id", q.MatchID, "err", err)
			continue
		}
		for _, st := range standings {
			state[standingKey{st.Player, st.Format}] = st
		}
		out.Changes = append(out.Changes, changes...)
	}
	slices.SortFunc(out.Changes, CompareChanges)
	out.Standings = sortedStandings(state)
	return out, nil
}

// Replace writes a rebuild in place of every rating (Store.Replace).
func (p *Projector) Replace(ctx context.Context, r Rebuilt) error {
	return p.store.Replace(ctx, r.Done, r.Changes, r.Standings)
}
