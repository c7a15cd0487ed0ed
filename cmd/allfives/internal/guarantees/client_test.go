package guarantees

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// request is one request of the suite: what it asks, and who asks it.
type request struct {
	method string
	path   string // with its query
	cred   cred
	body   any               // marshalled as JSON; nil sends none
	header map[string]string // extra headers (conditional ones, Last-Event-ID)
	// kind is the kind of match (or tournament) the request is about, nil for none.
	kind *kind
	// noBearer leaves Authorization out: the credential travels in the URL (a ticket, an old
	// client's ?token=), and the assertions still judge the answer as cred's.
	noBearer bool
}

// answer is what the server said: status, headers and body.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// text is everything a client reads of the answer: its headers then its body.
func (a answer) text() string {
	var b strings.Builder
	for k, vs := range a.header {
		for _, v := range vs {
			b.WriteString(k + ": " + v + "\n")
		}
	}
	b.Write(a.body)
	return b.String()
}

// problem is the answer's problem+json code, "" when it is none.
func (a answer) code() string {
	var p struct {
		Code string `json:"code"`
	}
	if !strings.HasPrefix(a.header.Get("Content-Type"), "application/problem+json") || json.Unmarshal(a.body, &p) != nil {
		return ""
	}
	return p.Code
}

// routeOf is the pattern of the route the router serves path on, and its parameters.
func routeOf(e *echo.Echo, method, path string) (string, map[string]string) {
	if method == http.MethodHead {
		method = http.MethodGet
	}
	u, _, _ := strings.Cut(path, "?")
	c := e.NewContext(httptest.NewRequest(method, u, nil), nil)
	e.Router().Find(method, u, c)
	params := map[string]string{}
	for i, n := range c.ParamNames() {
		params[n] = c.ParamValues()[i]
	}
	return method + " " + c.Path(), params
}

// send serves r through the router, or, for a live stream or a HEAD, through the live
// server: a stream is read until its backlog is in (up to its match's version, or the first
// event of a player's stream), then closed.
func (s *suite) send(r request) answer {
	s.t.Helper()
	var body io.Reader = http.NoBody
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			s.t.Fatal(err)
		}
		body = bytes.NewReader(b)
	}
	if strings.Contains(r.path, "/stream") && r.method == http.MethodGet || r.method == http.MethodHead {
		// A live stream is read as it comes; a HEAD as net/http answers it, without a body.
		return s.sendLive(r, body)
	}
	req := httptest.NewRequest(r.method, r.path, body)
	s.dress(req, r)
	rec := httptest.NewRecorder()
	s.srv.Handler.ServeHTTP(rec, req)
	return answer{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// dress sets a request's credential, content type and extra headers.
func (s *suite) dress(req *http.Request, r request) {
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.cred.secret != "" && !r.noBearer {
		req.Header.Set("Authorization", "Bearer "+r.cred.secret)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
}

// sendLive sends r to the live server; a stream's answer is what it sends at once.
func (s *suite) sendLive(r request, body io.Reader) answer {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, r.method, s.live.URL+r.path, body)
	if err != nil {
		s.t.Fatal(err)
	}
	s.dress(req, r)
	res, err := s.live.Client().Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", r.method, r.path, err)
	}
	defer res.Body.Close()
	a := answer{status: res.StatusCode, header: res.Header}
	if res.StatusCode != http.StatusOK || r.method == http.MethodHead {
		a.body, _ = io.ReadAll(res.Body)
		return a
	}
	if last, read := s.backlogEnd(r); read {
		a.body = readBacklog(res.Body, last)
	}
	return a
}

// backlogEnd is the id of the last event a match stream sends at once (its match's version),
// "" for a player's stream, whose first event is its snapshot; read is false when the stream
// has nothing to send until the match moves (it starts at or past the version).
func (s *suite) backlogEnd(r request) (last string, read bool) {
	route, params := routeOf(s.srv.Echo, r.method, r.path)
	if route != "GET /api/v1/matches/:id/stream" {
		return "", true
	}
	m := s.truth.of(params["id"])
	if m == nil {
		return "", true
	}
	after := 0
	if u, err := url.Parse(r.path); err == nil {
		after, _ = strconv.Atoi(u.Query().Get("after"))
	}
	if h, ok := r.header["Last-Event-ID"]; ok {
		after, _ = strconv.Atoi(h)
	}
	if after >= m.version {
		return "", false
	}
	return strconv.Itoa(m.version), true
}

// readBacklog reads server-sent events until one with the id last (or, with last 0, until
// the first event), or until the stream ends.
func readBacklog(rd io.Reader, last string) []byte {
	var out bytes.Buffer
	buf := make([]byte, 4096)
	for {
		n, err := rd.Read(buf)
		out.Write(buf[:n])
		text := out.String()
		done := last == "" && strings.Contains(text, "\n\n") && strings.Contains(text, "data:")
		if last != "" && strings.Contains(text, "id: "+last+"\n") && strings.HasSuffix(text, "\n\n") {
			done = true
		}
		if done || err != nil {
			return out.Bytes()
		}
	}
}
