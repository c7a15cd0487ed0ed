package referee

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// ActRequest is one move by the caller's seat. ExpectedVersion, when positive, must equal the
// match's version. IdempotencyKey, when set, makes a retry return the first
// answer instead of moving again.
type ActRequest struct {
	Move            domain.Move
	ExpectedVersion int
	IdempotencyKey  string
	// Encode, when set, encodes the caller's view after the move (as EncodedView's enc does):
	// ActResult.View carries its bytes, and the match keeps them for the caller's next read of
	// this version, so the view is encoded once for both.
	Encode func(domain.MatchView) ([]byte, error)
}

// ActResult is the events the move caused (bots' included) and the match after them, both as
// the caller may see them. Replayed says the answer came from an earlier request with the
// same idempotency key.
type ActResult struct {
	Events   []domain.Event
	Match    domain.MatchView
	Replayed bool
	// View is Match encoded by ActRequest.Encode; nil without one, for a replayed answer, and
	// when the encoding failed (the caller then encodes Match itself).
	View []byte
}

// Act runs a move for the viewer's seat, then bot turns until a human is to move or the match
// ends, and stores every resulting event in one append. A move that lost a race to another
// copy of the match (one evicted from the cache while in use, or another instance), or that
// the cached copy refused while the store had moved on, is tried again on the match as stored:
// decided again without an expected version, refused as a conflict with one.
func (s *MatchService) Act(ctx context.Context, id string, v domain.Viewer, req ActRequest) (ActResult, error) {
	seat, ok := v.Seat()
	if !ok {
		return ActResult{}, domain.ErrUnauthorized
	}
	res, err := s.act(ctx, id, v, seat, req)
	// Up to two more tries: one after a refusal found the cached copy stale, one after an
	// append lost a race (stalecopy.go says when a conflict is worth another try). A keyed move
	// is tried again too: its copy of the match may not know a key another process recorded
	// (cache.go), and the next try reads the key from the store.
	for try := 0; try < 2 && tryAgain(err, req); try++ {
		res, err = s.act(ctx, id, v, seat, req)
	}
	return res, err
}

func (s *MatchService) act(ctx context.Context, id string, v domain.Viewer, seat int, req ActRequest) (ActResult, error) {
	e, err := s.acquire(ctx, id)
	if err != nil {
		return ActResult{}, err
	}
	defer s.release(e)
	if e.match.Holder(v) != v {
		return ActResult{}, domain.ErrUnauthorized // the seat changed hands after the token was checked
	}
	var fp string // only a move under a key needs one: most moves never format it
	if req.IdempotencyKey != "" {
		fp = fingerprint(seat, req.Move)
		// Keys are per seat (docs/api-matches.md, "Idempotency"): only this seat's own record is
		// looked up, so another seat's use of the key neither refuses this move nor shows.
		rec, found, err := s.idempotency(ctx, e, seat, req.IdempotencyKey)
		if err != nil {
			return ActResult{}, corrupt(id, err)
		}
		if found {
			if rec.Seat != seat || rec.Fingerprint != fp {
				return ActResult{}, domain.ErrIdempotencyReuse
			}
			return s.replayAnswer(ctx, e, v, rec)
		}
	}
	m := e.match
	if req.ExpectedVersion > 0 && req.ExpectedVersion != m.Version() {
		return ActResult{}, s.refuse(ctx, e, &domain.VersionConflictError{Expected: req.ExpectedVersion, Current: m.Version()})
	}
	now := s.clock.Now()
	work := e.working()
	events, err := work.play(seat, req.Move, now)
	if err != nil {
		return ActResult{}, s.refuse(ctx, e, err)
	}
	more, err := s.runBots(ctx, work, now)
	if err != nil {
		return ActResult{}, err
	}
	events = append(events, more...)
	a := Append{MatchID: id, Expected: m.Version(), Events: events, Summary: work.match.Summary()}
	if req.IdempotencyKey != "" {
		a.Idempotency = &IdempotencyRecord{
			Key: req.IdempotencyKey, Seat: seat, Fingerprint: fp,
			FirstSeq: events[0].Seq, LastSeq: events[len(events)-1].Seq, CreatedAt: now,
		}
	}
	if err := s.store.Append(ctx, a); err != nil {
		if errors.Is(err, domain.ErrVersionConflict) || errors.Is(err, storeerr.ErrStoreUnavailable) {
			// Another writer got there first: this copy is stale. Forget it, unless the cache
			// already holds a newer one. A lost connection leaves the commit's outcome unknown:
			// the copy is forgotten too, and a retry reads the stored log (and its key).
			s.cache.drop(e)
		}
		return ActResult{}, err
	}
	e.set(work)
	e.remember(a.Idempotency)
	s.watch.wake(id)
	s.handOn(id, work.match, time.Now())
	if v, err = s.sealFor(ctx, work.match, v, false); err != nil {
		return ActResult{}, err
	}
	res := ActResult{Events: v.RedactAll(events, work.match.Finished()), Match: work.match.View(v)}
	if req.Encode != nil {
		if b, err := req.Encode(res.Match); err == nil {
			res.View = b
			if slot := viewSlot(v); slot >= 0 {
				s.cache.keepView(e, e.snap.Load(), slot, b)
			}
		}
	}
	return res, nil
}

// replayAnswer rebuilds the answer an earlier keyed request got: its events and the match as
// it stood right after them.
// A stored record naming events the log does not hold is a corrupt record, not a panic. The
// record is judged against the stored log, not the cached copy: with several instances the
// copy may be older than the keyed request another instance committed (docs/design.md,
// "Several instances").
func (s *MatchService) replayAnswer(ctx context.Context, e *entry, v domain.Viewer, rec IdempotencyRecord) (ActResult, error) {
	id := e.match.ID()
	if rec.FirstSeq < 1 || rec.FirstSeq > rec.LastSeq {
		return ActResult{}, &CorruptError{MatchID: id}
	}
	events, err := s.store.Events(ctx, id, 0, rec.LastSeq)
	if err != nil {
		return ActResult{}, corrupt(id, err)
	}
	if len(events) != rec.LastSeq {
		return ActResult{}, &CorruptError{MatchID: id}
	}
	then, err := domain.Rebuild(id, events)
	if err != nil {
		return ActResult{}, &CorruptError{MatchID: id}
	}
	// A stale copy may not know yet that the match ended: then it only hides more.
	finished := e.match.Finished()
	if v, err = s.sealFor(ctx, then, v, false); err != nil {
		return ActResult{}, err
	}
	return ActResult{
		Events:   v.RedactAll(events[rec.FirstSeq-1:], finished),
		Match:    then.View(v),
		Replayed: true,
	}, nil
}

// fingerprint names a move canonically, so "6-4" and "4-6" are the same request.
func fingerprint(seat int, mv domain.Move) string {
	switch {
	case mv.Action != domain.ActionPlay:
		return fmt.Sprintf("%d %s", seat, mv.Action)
	case mv.EndGiven:
		return fmt.Sprintf("%d play %s %s", seat, mv.Tile, mv.End)
	}
	return fmt.Sprintf("%d play %s", seat, mv.Tile)
}

// runBots lets bot seats act on g until a human is to move, the match ends, or, while the
// match has a human seat, a Paced strategy is to decide: that turn and every one after it are
// the pacer's (pacer.go), played after the answer, so no answer waits for a paced decision.
// Every event gets the one time at, the command's: the events of one append share one
// timestamp, so the gaps between them cannot show how long a bot thought (docs/api-matches.md,
// "Timing").
func (s *MatchService) runBots(ctx context.Context, g *game, at time.Time) ([]domain.Event, error) {
	human := hasHuman(g.match)
	var out []domain.Event
	for step := 0; ; step++ {
		seat := g.match.Turn()
		if seat < 0 {
			break
		}
		p := g.match.Player(seat)
		autoplay := g.match.OnAutoplay(seat)
		if p.Kind != domain.Bot && !autoplay {
			break
		}
		if human && !autoplay && s.paced(p.Bot) {
			break // the pacer's turn (pacer.go)
		}
		if step >= MaxBotSteps {
			return nil, fmt.Errorf("bots took more than %d steps", MaxBotSteps)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var events []domain.Event
		var err error
		if autoplay {
			// A seat on autoplay moves as AutoMove says, which the audit re-checks. It is not
			// paced: AutoMove's strategy (greedy) is cheap and deterministic, deciding in
			// microseconds whatever the seat holds, so its time has nothing to hide.
			events, err = g.play(seat, g.match.AutoMove(seat, g.hands, s.chooser(ctx)), at)
		} else {
			events, err = s.botTurn(ctx, g, seat, p.Bot, at, time.Time{})
		}
		if err != nil {
			return nil, err
		}
		out = append(out, events...)
	}
	return out, nil
}

// hasHuman says whether a seat of m is a human's (on autoplay or not): someone who may time
// the answers.
func hasHuman(m *domain.Match) bool {
	for seat := range m.Table().Players() {
		if m.Player(seat).Kind == domain.Human {
			return true
		}
	}
	return false
}

// botTurn asks the seat's strategy for a move and plays it on g. A strategy that fails or
// answers an illegal move must not stall the match, so the seat then takes its first legal move.
// With heldFrom set and a Paced strategy, the turn is then held to the strategy's floor counted
// from heldFrom: on the monotonic clock (time.Now, not the Clock port, which tests fix), the
// service's pause waits out the rest. A pause cut short by ctx returns ctx's error, and the
// caller stores nothing.
func (s *MatchService) botTurn(ctx context.Context, g *game, seat int, name string, now, heldFrom time.Time) ([]domain.Event, error) {
	strategy, ok := s.bots[name]
	var floor time.Duration
	if p, paced := strategy.(domain.Paced); ok && !heldFrom.IsZero() && paced {
		floor = p.MinDecision()
	}
	events, err := s.decideBot(ctx, g, seat, strategy, ok, now)
	if err != nil || floor <= 0 {
		return events, err
	}
	if err := s.pause(ctx, max(0, floor-time.Since(heldFrom))); err != nil {
		return nil, err
	}
	return events, nil
}

// paced says whether the strategy named is Paced with a floor: while a human sits at the
// match, its turns are the pacer's.
func (s *MatchService) paced(name string) bool {
	p, ok := s.bots[name].(domain.Paced)
	return ok && p.MinDecision() > 0
}

// decideBot is botTurn's move: the strategy's when it has one that is legal, else the seat's
// first legal move.
func (s *MatchService) decideBot(ctx context.Context, g *game, seat int, strategy domain.Strategy, ok bool, now time.Time) ([]domain.Event, error) {
	if ok {
		if mv, err := strategy.Choose(ctx, g.match.SeatView(seat, g.hands)); err == nil {
			version := g.match.Version()
			events, err := g.play(seat, mv, now)
			if err == nil {
				return events, nil
			}
			if g.match.Version() != version { // failed part-way (game.play): g is lost
				return nil, err
			}
		}
	}
	legal := g.match.LegalMoves(seat)
	if len(legal) == 0 {
		return nil, fmt.Errorf("bot seat %d has no legal move", seat)
	}
	return g.play(seat, legal[0].Move(), now)
}
