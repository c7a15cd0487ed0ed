package referee

import (
	"context"
	"errors"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/storeerr"
)

// refuse returns err, the refusal of a command decided on e's cached copy, unless the store
// holds a newer version than the copy: another instance sharing the store moved the match on
// (docs/design.md, "Several instances"). Then the copy is dropped and the refusal becomes a
// version conflict, so that Act decides once more on the match as stored. A move that succeeds
// needs no such check: its append meets the stored version. The caller holds e.mu.
func (s *MatchService) refuse(ctx context.Context, e *entry, err error) error {
	stored, serr := s.store.Match(ctx, e.match.ID())
	if errors.Is(serr, storeerr.ErrStoreUnavailable) {
		return serr // a refusal the store cannot confirm is not given: 503, not a wrong 4xx
	}
	if serr != nil || stored.Summary.Version <= e.match.Version() {
		return err
	}
	s.cache.drop(e)
	return staleCopy{&domain.VersionConflictError{Expected: e.match.Version(), Current: stored.Summary.Version}}
}

// staleCopy is the conflict refuse reports when the store had moved past the cached copy. It
// reads as the version conflict it wraps, and tells Act to try again.
type staleCopy struct{ *domain.VersionConflictError }

// Unwrap is the conflict, so errors.As finds *domain.VersionConflictError.
func (e staleCopy) Unwrap() error { return e.VersionConflictError }

// tryAgain says whether Act should run a move once more after err: a conflict, when the move
// named no version (it is decided again on the stored match), when it carries an idempotency
// key (the race may have been lost to its own first attempt, whose answer is stored), or when
// the copy it was decided on was stale. A move whose If-Match is simply out of date is refused
// at once.
func tryAgain(err error, req ActRequest) bool {
	if !errors.Is(err, domain.ErrVersionConflict) {
		return false
	}
	var stale staleCopy
	return req.ExpectedVersion == 0 || req.IdempotencyKey != "" || errors.As(err, &stale)
}
