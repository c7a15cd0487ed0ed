package referee

import (
	"context"

	"github.com/allfives/allfives/domain"
)

// MaxEventsPage is the most events one Events call returns.
const MaxEventsPage = 1000

// Reads take the match's published snapshot (cache.go), never its lock: a read does not wait
// for a move on the same match, and sees the state before or after it, never half of it.

// View returns the match as v may see it.
func (s *MatchService) View(ctx context.Context, id string, v domain.Viewer) (domain.MatchView, error) {
	snap, err := s.snapshot(ctx, id)
	if err != nil {
		return domain.MatchView{}, err
	}
	s.nudge(id, snap.match)
	if v, err = s.sealFor(ctx, snap.match, v, false); err != nil {
		return domain.MatchView{}, err
	}
	return snap.match.View(v), nil
}

// EncodedView returns the match as v may see it, encoded by enc, and its version. The
// encoding is kept with the match's current version for the spectator and each seat, so
// repeated reads of an unchanged match encode it once; enc must depend on the view alone.
func (s *MatchService) EncodedView(ctx context.Context, id string, v domain.Viewer, enc func(domain.MatchView) ([]byte, error)) ([]byte, int, error) {
	e, snap, err := s.current(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	s.nudge(id, snap.match)
	v = snap.match.Holder(v)
	if v, err = s.sealFor(ctx, snap.match, v, false); err != nil {
		return nil, 0, err
	}
	slot := viewSlot(v)
	if slot >= 0 {
		if b := snap.views[slot].Load(); b != nil {
			return *b, snap.match.Version(), nil
		}
	}
	b, err := enc(snap.match.View(v))
	if err != nil {
		return nil, 0, err
	}
	if slot >= 0 {
		s.cache.keepView(e, snap, slot, b)
	}
	return b, snap.match.Version(), nil
}

// viewSlot is v's slot in snapshot.views: 0 for the spectator, 1+seat for a seat, -1 for
// any other viewer (an opened one), whose views are not kept.
func viewSlot(v domain.Viewer) int {
	v = v.Unbound()
	switch seat, ok := v.Seat(); {
	case v == domain.Spectator():
		return 0
	case ok && v == domain.SeatViewer(seat) && seat < maxSeats:
		return 1 + seat
	}
	return -1
}

// LegalMoves returns the viewer's seat, the match version and the seat's legal moves now
// (empty when it is not the seat's turn). A spectator has no legal moves: ErrUnauthorized.
func (s *MatchService) LegalMoves(ctx context.Context, id string, v domain.Viewer) (seat, version int, moves []domain.LegalMove, err error) {
	seat, ok := v.Seat()
	if !ok {
		return 0, 0, nil, domain.ErrUnauthorized
	}
	snap, err := s.snapshot(ctx, id)
	if err != nil {
		return 0, 0, nil, err
	}
	if snap.match.Holder(v) != v {
		return 0, 0, nil, domain.ErrUnauthorized // the seat changed hands after the token was checked
	}
	return seat, snap.match.Version(), snap.match.LegalMoves(seat), nil
}

// Events returns up to limit events with seq > after, as v may see them, and the version.
func (s *MatchService) Events(ctx context.Context, id string, v domain.Viewer, after, limit int) ([]domain.Event, int, error) {
	if after < 0 {
		return nil, 0, domain.Invalidf("after must be 0 or more")
	}
	if limit < 1 || limit > MaxEventsPage {
		return nil, 0, domain.Invalidf("limit must be 1 to %d", MaxEventsPage)
	}
	// The seal first, whatever the range: even match.created alone and the version would
	// tell a table how far another holding the same cards has played.
	v, err := s.sealForID(ctx, id, v, true)
	if err != nil {
		return nil, 0, err
	}
	// Read the status before the log: if the match ends in between, the events are redacted
	// more than needed, never less.
	version, finished, err := s.Progress(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	if v, err = s.holdsUpTo(ctx, id, v, after); err != nil {
		return nil, 0, err
	}
	events, err := s.store.Events(ctx, id, after, limit)
	if err != nil {
		return nil, 0, corrupt(id, err)
	}
	if n := len(events); n > 0 && events[n-1].Seq > version {
		version = events[n-1].Seq
	}
	return v.RedactAll(events, finished), version, nil
}

// History lists matches newest first. Limit is 1 to 100 (0: 20).
func (s *MatchService) History(ctx context.Context, q HistoryQuery) (HistoryPage, error) {
	if q.Limit == 0 {
		q.Limit = 20
	}
	if q.Limit < 1 || q.Limit > 100 {
		return HistoryPage{}, domain.Invalidf("limit must be 1 to 100")
	}
	switch q.Status {
	case "", domain.StatusWaiting, domain.StatusInProgress, domain.StatusFinished, domain.StatusExpired, domain.StatusCancelled:
	default:
		return HistoryPage{}, domain.Invalidf("status must be waiting, in_progress, finished, expired or cancelled")
	}
	if !q.Since.IsZero() && !q.Until.IsZero() && q.Until.Before(q.Since) {
		return HistoryPage{}, domain.Invalidf("until is before since")
	}
	page, err := s.store.History(ctx, q)
	if err != nil {
		return HistoryPage{}, err
	}
	page.Matches = unsealed(ctx, s, page.Matches, func(it HistoryItem) HistoryItem { return it })
	return page, nil
}

// Progress returns the match's version and whether it has finished, without taking the match's
// lock: live streams call it (through Events) on every append, and a thousand of them waking
// must not queue up behind, or hold up, the move that woke them.
func (s *MatchService) Progress(ctx context.Context, id string) (version int, finished bool, err error) {
	e, err := s.load(ctx, id)
	if err != nil {
		return 0, false, err
	}
	defer s.cache.unpin(e)
	return int(e.ver.Load()), !e.live.Load(), nil
}

// holdsUpTo is v as it may read the log after seq after: when its credential was checked
// before after (a copy of the match behind the store, on another instance), the events in
// between are read too, so that a join or leave of its seat among them is not skipped
// (docs/api-matches.md, "When a seat changes hands"). A viewer checked at or beyond after pays nothing.
func (s *MatchService) holdsUpTo(ctx context.Context, id string, v domain.Viewer, after int) (domain.Viewer, error) {
	checked, ok := v.Checked()
	if !ok || checked >= after {
		return v, nil
	}
	between, err := s.store.Events(ctx, id, checked, after-checked)
	if err != nil {
		return v, corrupt(id, err)
	}
	for _, e := range between {
		if v.LosesSeat(e) {
			return domain.Spectator(), nil
		}
	}
	return v, nil
}
