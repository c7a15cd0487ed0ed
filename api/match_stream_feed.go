package api

import (
	"context"
	"errors"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// errSeatLost ends a stream whose credential no longer holds its seat: the seat was left, or
// the credential ended some other way. The stream has sent its 200, so it just closes; a client
// that reconnects with the same credential is answered 401.
// Before the stream starts it is the 401 any other request with that credential gets.
var errSeatLost = fmt.Errorf("%w: the credential no longer holds its seat", domain.ErrUnauthorized)

// feed is what a stream follows: one match's events as its caller may see them, and a wake-up
// after every append. With a tracker (?view=1) each event comes with the caller's view after it.
//
// A stream holds its seat's view only while its credential holds the seat (docs/api-matches.md, "When a
// seat changes hands"): every read first checks the credential again, so a missed wake-up
// cannot leak, and the events end with the first that takes the seat from the viewer (a leave
// of its seat, or a join by someone else), which the stream sends before it closes.
type feed struct {
	svc     *referee.MatchService
	id      string
	check   viewerCheck // authenticates the stream's credential (token or ticket) again; nil for a spectator
	v       domain.Viewer
	wake    <-chan struct{}
	tracker *referee.Tracker
	lost    bool // the last read ended with the event that took the seat from v
}

// sseEvent is one event to send, with the caller's view after it when the stream carries views.
type sseEvent struct {
	domain.Event
	view *domain.MatchView
}

// held checks that the stream's credential still holds the seat it was opened for.
func (f *feed) held(ctx context.Context) error {
	if f.check == nil {
		return nil
	}
	v, err := f.check(ctx)
	switch {
	case errors.Is(err, domain.ErrUnauthorized):
		return errSeatLost
	case err != nil:
		return err
	case v.Unbound() != f.v.Unbound():
		return errSeatLost
	}
	return nil
}

// after reads the events after seq, a page at a time so that a long log does not sit in memory
// whole, up to and including the one that takes the seat from the viewer.
func (f *feed) after(ctx context.Context, seq int) ([]sseEvent, error) {
	if err := f.held(ctx); err != nil {
		return nil, err
	}
	var out []sseEvent
	if f.tracker == nil {
		events, _, err := f.svc.Events(ctx, f.id, f.v, seq, referee.MaxEventsPage)
		if err != nil {
			return nil, err
		}
		out = make([]sseEvent, len(events))
		for i, e := range events {
			out[i] = sseEvent{Event: e}
		}
	} else {
		events, views, err := f.svc.EventViews(ctx, f.id, f.v, f.tracker, seq, referee.MaxEventsPage)
		if err != nil {
			return nil, err
		}
		out = make([]sseEvent, len(events))
		for i, e := range events {
			out[i] = sseEvent{Event: e, view: &views[i]}
		}
	}
	return f.untilLost(out), nil
}

// untilLost cuts events after the one that takes the seat from the viewer, and remembers it.
func (f *feed) untilLost(events []sseEvent) []sseEvent {
	for i, e := range events {
		if f.v.LosesSeat(e.Event) {
			f.lost = true
			return events[:i+1]
		}
	}
	return events
}

// finished says whether the match has ended, without taking the match's lock.
func (f feed) finished(ctx context.Context) bool {
	_, done, err := f.svc.Progress(ctx, f.id)
	return err == nil && done
}
