// Package sse writes server-sent events (the live streams of docs/api-streams.md, "Following a match
// live"), and counts the streams open against their caps.
package sse

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// Writer writes server-sent events, moving the connection's write deadline before each write
// so that the server's WriteTimeout does not cut the stream.
type Writer struct {
	rc     *http.ResponseController
	w      io.Writer
	window time.Duration
}

// Start sends the 200 and the stream's headers at once rather than with the first event, which
// on a quiet stream may be a long time coming. Each write must come within window of the one
// before (see arm).
func Start(res *echo.Response, window time.Duration) (*Writer, error) {
	// The server's ReadTimeout needs nothing: net/http lifts the read deadline once the
	// request's body is read. Its WriteTimeout does: see arm.
	h := res.Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // nginx would otherwise hold the events back
	h.Set("Vary", "Authorization")
	sw := &Writer{rc: http.NewResponseController(res), w: res, window: window}
	res.WriteHeader(http.StatusOK)
	return sw, sw.Flush()
}

// arm moves the write deadline to now + window. A write never comes later than a heartbeat
// after the one before, so the deadline cannot pass while the stream is healthy; a client that
// stops reading loses the stream once a write has waited that long. A writer that cannot set
// deadlines (a test's recorder) has no timeout to beat, so the error is ignored.
func (sw *Writer) arm() { _ = sw.rc.SetWriteDeadline(time.Now().Add(sw.window)) }

// Event writes one event with an id, a name and data, as JSON. The JSON holds no newline, so
// it is one data line.
func (sw *Writer) Event(id int, name string, data any) error {
	js, err := json.Marshal(data)
	if err != nil {
		return err
	}
	sw.arm()
	_, err = fmt.Fprintf(sw.w, "id: %d\nevent: %s\ndata: %s\n\n", id, name, js)
	return err
}

// Named writes one event with a name and data, as JSON, and no id.
func (sw *Writer) Named(name string, data any) error {
	js, err := json.Marshal(data)
	if err != nil {
		return err
	}
	sw.arm()
	_, err = fmt.Fprintf(sw.w, "event: %s\ndata: %s\n\n", name, js)
	return err
}

// Comment writes a comment line, which EventSource ignores, and flushes it.
func (sw *Writer) Comment(text string) error {
	sw.arm()
	if _, err := fmt.Fprintf(sw.w, ": %s\n\n", text); err != nil {
		return err
	}
	return sw.Flush()
}

// Flush sends what is written to the client now.
func (sw *Writer) Flush() error {
	sw.arm()
	return sw.rc.Flush()
}
