package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
)

// The contract declares the stream's 200 as text/event-stream; the validator reads it as text.
func init() {
	openapi3filter.RegisterBodyDecoder("text/event-stream", openapi3filter.PlainBodyDecoder)
}

// wait bounds every wait for something the server must do: generous, since the tests run
// with -race on small shared machines. Nothing is asserted about how long anything takes.
const wait = 60 * time.Second

// frame is one server-sent event, or a comment.
type frame struct {
	id, event, data, comment string
}

// sse is a stream read by a real HTTP client.
type sse struct {
	t      *testing.T
	req    *http.Request
	res    *http.Response
	cancel context.CancelFunc
	frames chan frame
	mu     sync.Mutex
	raw    bytes.Buffer // every byte read, for the contract check
}

// openStream GETs url with header pairs hdr and, on a 200, reads frames in the background.
// Any other answer is returned whole, contract-checked.
func openStream(t *testing.T, url string, hdr ...string) (*sse, *reply) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		defer cancel()
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		r := &reply{status: res.StatusCode, header: res.Header, body: body}
		if err := checkContract(req, r); err != nil {
			t.Fatalf("GET %s -> %d breaks the contract: %v\n%s", url, r.status, err, body)
		}
		return nil, r
	}
	if ct, cc := res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"); ct != "text/event-stream" || cc != "no-cache" {
		t.Fatalf("stream headers: Content-Type %q, Cache-Control %q", ct, cc)
	}
	s := &sse{t: t, req: req, res: res, cancel: cancel, frames: make(chan frame, 64)}
	go s.read()
	t.Cleanup(s.close)
	return s, nil
}

// read parses the stream into frames until it ends.
func (s *sse) read() {
	defer close(s.frames)
	rd := bufio.NewReader(s.res.Body)
	var f frame
	for {
		line, err := rd.ReadString('\n')
		s.mu.Lock()
		s.raw.WriteString(line)
		s.mu.Unlock()
		if err != nil {
			return
		}
		line = strings.TrimSuffix(line, "\n")
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch {
		case line == "":
			if f != (frame{}) {
				s.frames <- f
			}
			f = frame{}
		case name == "":
			f.comment = value
		case name == "id":
			f.id = value
		case name == "event":
			f.event = value
		case name == "data":
			f.data = value
		}
	}
}

// next returns the next frame, or ok=false when the stream has ended.
func (s *sse) next() (frame, bool) {
	s.t.Helper()
	select {
	case f, ok := <-s.frames:
		return f, ok
	case <-time.After(wait):
		s.t.Fatalf("no frame within %v", wait)
		return frame{}, false
	}
}

// nextEvent returns the next event, skipping comments, or ok=false when the stream ended.
func (s *sse) nextEvent() (frame, bool) {
	s.t.Helper()
	for {
		f, ok := s.next()
		if !ok || f.comment == "" {
			return f, ok
		}
	}
}

// ended checks that the stream ends now, with nothing more sent.
func (s *sse) ended() {
	s.t.Helper()
	if f, ok := s.next(); ok {
		s.t.Fatalf("the stream goes on after match.ended: %+v", f)
	}
}

// close hangs up and checks what was read against the contract.
func (s *sse) close() {
	s.cancel()
	s.res.Body.Close()
	for range s.frames {
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := checkContract(s.req, &reply{status: s.res.StatusCode, header: s.res.Header, body: s.raw.Bytes()}); err != nil {
		s.t.Errorf("the stream breaks the contract: %v", err)
	}
}

// decodeFrame checks an event frame's fields against its data and decodes the data.
func decodeFrame(t *testing.T, f frame) domain.Event {
	t.Helper()
	var e domain.Event
	if err := json.Unmarshal([]byte(f.data), &e); err != nil {
		t.Fatalf("frame %+v: %v", f, err)
	}
	if f.id != strconv.Itoa(e.Seq) || f.event != string(e.Type) {
		t.Fatalf("frame id %q, event %q, but its data is seq %d, type %s", f.id, f.event, e.Seq, e.Type)
	}
	return e
}

// mover plays a live match's human seats through the router from another goroutine.
type mover struct {
	t    *testing.T
	tb   *table
	turn int
}

// play makes up to n moves (n < 0: to the end) and says whether the match is still live.
func (m *mover) play(n int) bool {
	for ; n != 0; n-- {
		r := m.tb.h.do(http.MethodGet, m.tb.path(""), nil)
		var v api.MatchView
		if err := json.Unmarshal(r.body, &v); err != nil || r.status != http.StatusOK {
			m.t.Errorf("view: %d %s", r.status, r.body)
			return false
		}
		if v.Status == "finished" {
			return false
		}
		seat := v.Hand.Turn
		r = m.tb.h.do(http.MethodGet, m.tb.path("/legal-moves"), nil, auth(m.tb.tokens[seat])...)
		var lm api.LegalMovesResponse
		if err := json.Unmarshal(r.body, &lm); err != nil || r.status != http.StatusOK || len(lm.LegalMoves) == 0 {
			m.t.Errorf("legal moves of seat %d: %d %s", seat, r.status, r.body)
			return false
		}
		m.turn++
		r = m.tb.move(seat, asMove(pick(lm.LegalMoves, m.turn)))
		if r.status != http.StatusOK {
			m.t.Errorf("move: %d %s", r.status, r.body)
			return false
		}
	}
	return true
}
