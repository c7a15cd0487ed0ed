package reviews

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// Encode is a review's one wire form, stored and served byte for byte, and printed by
// `allfives review --json`: the JSON of the engine's Result and a newline. The engine is
// deterministic and encoding/json writes struct fields in order and floats in their shortest
// form, so one match's review is the same bytes on every machine (docs/review.md,
// "Determinism").
func Encode(res *analysis.Result) ([]byte, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// work computes queued reviews until Close.
func (s *Service) work() {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		case id := <-s.jobs:
			s.mu.Lock()
			s.queued--
			s.mu.Unlock()
			s.run(id)
			s.mu.Lock()
			s.drop(id) // only now: until the answer is stored, a GET must see it running here
			s.mu.Unlock()
		}
	}
}

// run computes and stores one review. A record the engine cannot review is stored as failed
// (RECORD_CORRUPT); any other failure (a busy store, the service closing) leaves it stored as
// running, so that the next ask computes it again.
func (s *Service) run(id string) {
	body, events, res, err := s.compute(id)
	rec := Record{MatchID: id, Method: s.method, FinishedAt: s.clock()}
	switch {
	case err == nil:
		rec.Status, rec.Result = StatusDone, body
	case s.ctx.Err() != nil:
		return
	case errors.Is(err, analysis.ErrBadLog), errors.Is(err, analysis.ErrNotFinished), errors.Is(err, storeerr.ErrRecordCorrupt):
		s.log.Error("review: the match's record cannot be reviewed", "match", id, "err", err)
		rec.Status, rec.Code = StatusFailed, storeerr.CodeRecordCorrupt
	default:
		s.log.Error("review failed; it is computed again when next asked for", "match", id, "err", err)
		return
	}
	if err := s.store.FinishReview(s.ctx, rec); err != nil {
		if s.ctx.Err() == nil {
			s.log.Error("store review; it is computed again when next asked for", "match", id, "err", err)
		}
		return
	}
	if rec.Status == StatusDone && s.told != nil {
		if err := s.told(s.ctx, id, events, res); err != nil && s.ctx.Err() == nil {
			s.log.Error("review stored; its hook failed", "match", id, "err", err)
		}
	}
}

// compute reads the match's whole log and reviews it, and returns the log and the review with
// their encoding. A log that makes the engine panic (a record changed behind the server's
// back) is a corrupt record, not a crash.
func (s *Service) compute(id string) (body []byte, events []domain.Event, res *analysis.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			body, err = nil, fmt.Errorf("%w: the engine panicked: %v", analysis.ErrBadLog, p)
		}
	}()
	if events, err = s.fullLog(s.ctx, id); err != nil {
		return nil, nil, nil, err
	}
	if res, err = s.engine(s.ctx, events, s.opts); err != nil {
		return nil, nil, nil, err
	}
	body, err = Encode(res)
	return body, events, res, err
}

// fullLog reads every event of a finished match, which everyone sees unredacted, a page at a
// time.
func (s *Service) fullLog(ctx context.Context, id string) ([]domain.Event, error) {
	var out []domain.Event
	for after := 0; ; after = out[len(out)-1].Seq {
		page, _, err := s.matches.Events(ctx, id, domain.Spectator(), after, referee.MaxEventsPage)
		switch {
		case err != nil:
			return nil, err
		case len(page) == 0:
			return out, nil
		case page[0].Seq <= after:
			return nil, fmt.Errorf("%w: the log goes back to seq %d after %d", storeerr.ErrRecordCorrupt, page[0].Seq, after)
		}
		out = append(out, page...)
	}
}
