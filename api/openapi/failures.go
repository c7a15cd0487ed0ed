package openapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/allfives/allfives/api/middleware"
)

// commonFailure is an error answer many operations share: the middleware's, and the store's.
// Convert adds it to every operation it applies to, so the annotations need not repeat it.
type commonFailure struct {
	status      int
	description string // the codes it may carry, as an annotation would name them
	retryAfter  bool   // sent with a Retry-After header
	store       bool   // only operations that read or write the match store
	post        bool   // only POST operations, the ones whose body is read (middleware.BodyLimit)
	body        bool   // only operations that take a JSON body (jsonbody.Decode, jsonbody.Optional)
}

// commonFailures are the answers of the rate limit and the header limit (every operation but
// the probes, which neither applies to: ratelimit.Limiter.Middleware), of the body limit (every
// POST, body or not: a declared length over it is refused before the handler), of the body's
// media type (every operation that takes a body), and of the store (every operation under
// /api/v1/). Retry-After goes with the codes package problem sends it with.
var commonFailures = []commonFailure{
	{status: 429, description: "RATE_LIMITED: too many requests from this address; Retry-After says when to retry", retryAfter: true},
	{status: 413, description: "PAYLOAD_TOO_LARGE: the body is larger than " + strconv.Itoa(middleware.DefaultBodyLimit>>10) + " KiB", post: true},
	// Every POST reads its body, one that takes none too (jsonbody.None), so a body that never ends
	// meets the server's read timeout.
	{status: 408, description: "REQUEST_TIMEOUT: the body did not arrive before the server's read timeout", post: true},
	{status: 415, description: "UNSUPPORTED_MEDIA_TYPE: the body is not sent as application/json in UTF-8", body: true},
	{status: 431, description: "HEADER_TOO_LARGE: the headers and URL exceed " + strconv.Itoa(middleware.DefaultHeaderLimit>>10) + " KiB"},
	{status: 500, description: "INTERNAL, or RECORD_CORRUPT: the match's stored record cannot be read or folded (its audit says where)", store: true},
	{status: 503, description: "STORE_BUSY: the store stayed locked beyond its timeout; Retry-After says when to retry", retryAfter: true, store: true},
	{status: 507, description: "STORE_FULL: the store's disk is full; writes fail until space is freed; Retry-After says when to retry", retryAfter: true, store: true},
}

// appliesTo says whether operation op, method on path, can answer f.
func (f commonFailure) appliesTo(path, method string, op *openapi3.Operation) bool {
	return !probePaths[path] && (!f.store || strings.HasPrefix(path, "/api/v1/")) &&
		(!f.post || method == http.MethodPost) && (!f.body || op.RequestBody != nil)
}

// probePaths answer monitoring: no rate limit, no store, no 4XX (docs/.redocly.lint-ignore.yaml).
var probePaths = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// retryAfterHeader is the header 429, 503 and 507 answers carry.
func retryAfterHeader() *openapi3.HeaderRef {
	h := &openapi3.Header{Parameter: openapi3.Parameter{
		Description: "seconds to wait before retrying",
		Schema:      openapi3.NewSchemaRef("", openapi3.NewIntegerSchema()),
	}}
	return &openapi3.HeaderRef{Value: h}
}

// addCommonFailures gives every operation the common failures that apply to it. An operation
// that declares one of these statuses itself keeps its own words (a stream's 503 is also
// UNAVAILABLE, readyz's is NOT_READY), and gains only the Retry-After header if it lacks it.
func addCommonFailures(doc *openapi3.T) {
	problem := openapi3.NewSchemaRef("#/components/schemas/api.Problem", nil)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for _, f := range commonFailures {
				code := strconv.Itoa(f.status)
				resp := op.Responses.Value(code)
				if !f.appliesTo(path, method, op) && resp == nil {
					continue
				}
				if resp == nil || resp.Value == nil {
					r := openapi3.NewResponse().WithDescription(f.description).
						WithContent(openapi3.Content{mimeProblem: openapi3.NewMediaType().WithSchemaRef(problem)})
					resp = &openapi3.ResponseRef{Value: r}
					op.Responses.Set(code, resp)
				}
				if f.retryAfter && resp.Value.Headers["Retry-After"] == nil {
					if resp.Value.Headers == nil {
						resp.Value.Headers = openapi3.Headers{}
					}
					resp.Value.Headers["Retry-After"] = retryAfterHeader()
				}
			}
		}
	}
}
