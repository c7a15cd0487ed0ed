package api

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/allfives/allfives/domain"
)

// sseWriter writes server-sent events, moving the connection's write deadline before each
// write so that the server's WriteTimeout does not cut the stream.
type sseWriter struct {
	rc     *http.ResponseController
	w      io.Writer
	window time.Duration
}

// arm moves the write deadline to now + window. A write never comes later than a heartbeat
// after the one before, so the deadline cannot pass while the stream is healthy; a client that
// stops reading loses the stream once a write has waited that long. A writer that cannot set
// deadlines (a test's recorder) has no timeout to beat, so the error is ignored.
func (sw *sseWriter) arm() { _ = sw.rc.SetWriteDeadline(time.Now().Add(sw.window)) }

// event writes one event as the caller may see it. The JSON holds no newline, so it is one
// data line.
func (sw *sseWriter) event(se sseEvent) error {
	e := se.Event
	out := StreamEvent{Event: ToEvents([]domain.Event{e})[0]}
	if se.view != nil {
		v := ToMatchView(*se.view)
		out.Match = &v
	}
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	sw.arm()
	_, err = fmt.Fprintf(sw.w, "id: %d\nevent: %s\ndata: %s\n\n", e.Seq, e.Type, data)
	return err
}

// send writes events and flushes them. done says the stream is over: match.ended (or
// match.expired, or match.cancelled) is sent, or the client is gone.
func (sw *sseWriter) send(events []sseEvent) (last int, done bool) {
	for _, e := range events {
		if err := sw.event(e); err != nil {
			return last, true
		}
		last = e.Seq
		if e.Type == domain.TypeMatchEnded || e.Type == domain.TypeMatchExpired || e.Type == domain.TypeMatchCancelled {
			_ = sw.flush()
			return last, true
		}
	}
	return last, sw.flush() != nil
}

// comment writes a comment line, which EventSource ignores, and flushes it.
func (sw *sseWriter) comment(text string) error {
	sw.arm()
	if _, err := fmt.Fprintf(sw.w, ": %s\n\n", text); err != nil {
		return err
	}
	return sw.flush()
}

// flush sends what is written to the client now.
func (sw *sseWriter) flush() error {
	sw.arm()
	return sw.rc.Flush()
}
