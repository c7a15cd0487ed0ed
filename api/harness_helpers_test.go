package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/sqlite"
)

// seed1 deals seat 0 of a two-player match 2-3 4-4 4-5 2-4 2-5 0-0 5-5: it must lead 5-5,
// which scores 10. The README's walkthrough uses it too.
const seed1 = "1220bce908f962d172dd71edf7f3215397eaadbf54c4d03b1fc8334e91eaf12a"

// harness is the real server of apitest.New, with every answer checked against openapi.yaml.
type harness struct {
	*apitest.Harness
	t     testing.TB
	e     *echo.Echo
	svc   *referee.MatchService
	store *sqlite.Store // the SQLite store, nil on another
	// seen, when set, is called with every request and its reply (a leak test's record).
	seen func(req *http.Request, r *reply)
}

// newHarness is the one way the tests of package api build a server (apitest.New and its
// options).
func newHarness(t testing.TB, opts ...apitest.Option) *harness {
	t.Helper()
	a := apitest.New(t, opts...)
	store := a.SQLite
	if store == nil {
		store, _ = a.Store.(*sqlite.Store)
	}
	return &harness{Harness: a, t: t, e: a.E, svc: a.Service, store: store}
}

// shortHeartbeat makes a live stream's idle heartbeat come every 50 ms, for stream tests.
func shortHeartbeat(c *api.Config) { c.StreamHeartbeat = 50 * time.Millisecond }

// reply is one answer, already validated against the contract.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r *reply) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

// problem decodes a problem+json answer and checks its status and code.
func (r *reply) problem(t testing.TB, status int, code string) api.Problem {
	t.Helper()
	var p api.Problem
	r.decode(t, &p)
	if r.status != status || p.Code != code || p.Status != status {
		t.Fatalf("got %d %s, want %d %s: %s", r.status, p.Code, status, code, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("problem Content-Type %q", ct)
	}
	if p.RequestID == "" || p.RequestID != r.header.Get("X-Request-ID") {
		t.Fatalf("problem request_id %q, header %q", p.RequestID, r.header.Get("X-Request-ID"))
	}
	return p
}

// do sends a request through the router. body is JSON-encoded unless it is a string or
// []byte; hdr is name, value pairs.
func (h *harness) do(method, path string, body any, hdr ...string) *reply {
	h.t.Helper()
	return h.serve(h.request(method, path, body, hdr...))
}

// request is the request do sends.
func (h *harness) request(method, path string, body any, hdr ...string) *http.Request {
	h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		js, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		rd = bytes.NewReader(js)
	}
	req := httptest.NewRequest(method, path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return req
}

func (h *harness) serve(req *http.Request) *reply {
	h.t.Helper()
	rec := httptest.NewRecorder()
	h.e.ServeHTTP(rec, req)
	r := &reply{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	if h.seen != nil {
		h.seen(req, r)
	}
	if err := checkContract(req, r); err != nil {
		// Errorf, not Fatalf: do is also called from the goroutines of concurrency tests.
		h.t.Errorf("%s %s -> %d breaks the contract: %v\n%s", req.Method, req.URL, r.status, err, r.body)
	}
	return r
}

// auth is the Authorization header pair for a token.
func auth(token string) []string { return []string{"Authorization", "Bearer " + token} }

var contract = sync.OnceValues(func() (*openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromFile("../openapi.yaml")
	if err != nil {
		return nil, err
	}
	return doc, doc.Validate(context.Background())
})

var contractRouter = sync.OnceValues(func() (routers.Router, error) {
	doc, err := contract()
	if err != nil {
		return nil, err
	}
	return gorillamux.NewRouter(doc)
})

// checkContract validates an answer against openapi.yaml: its status must be documented for
// the operation and its body must match that status's schema and media type. Answers to paths
// outside the document (unknown routes, test-only routes) must be problems.
func checkContract(req *http.Request, r *reply) error {
	doc, err := contract()
	if err != nil {
		return err
	}
	router, err := contractRouter()
	if err != nil {
		return err
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		var v any
		if err := json.Unmarshal(r.body, &v); err != nil {
			return err
		}
		if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
			return &contractError{"an answer off the documented routes is not a problem: " + ct}
		}
		return doc.Components.Schemas["api.Problem"].Value.VisitJSON(v)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 r.status,
		Header:                 r.header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(r.body)
	return openapi3filter.ValidateResponse(context.Background(), in)
}

type contractError struct{ msg string }

func (e *contractError) Error() string { return e.msg }
