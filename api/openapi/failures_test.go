package openapi

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestCommonFailuresEverywhere: in openapi.yaml every operation but the probes answers 429 and
// 431, every POST 413, every operation that takes a body 415, every operation under /api/v1/
// answers 500, 503 and 507, and 429, 503 and 507 carry Retry-After, though the annotations no
// longer say so operation by operation.
func TestCommonFailuresEverywhere(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromFile("../../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for _, f := range commonFailures {
				resp := op.Responses.Value(strconv.Itoa(f.status))
				if !f.appliesTo(path, method, op) {
					continue
				}
				if resp == nil {
					t.Errorf("%s %s: no %d", method, path, f.status)
					continue
				}
				if f.retryAfter && resp.Value.Headers["Retry-After"] == nil {
					t.Errorf("%s %s: %d has no Retry-After", method, path, f.status)
				}
				if resp.Value.Content.Get(mimeProblem) == nil {
					t.Errorf("%s %s: %d is no problem", method, path, f.status)
				}
			}
		}
	}
}

// TestCommonFailuresKeepDeclared: an operation that declares a common status keeps its own
// description and gains only the Retry-After header; adding twice changes nothing, so a handler
// whose annotations still carry the copies builds the same document.
func TestCommonFailuresKeepDeclared(t *testing.T) {
	doc := &openapi3.T{Paths: openapi3.NewPaths()}
	op := openapi3.NewOperation()
	op.Responses = openapi3.NewResponses()
	own := "STORE_BUSY, or UNAVAILABLE: the server has as many streams open as it may"
	op.Responses.Set("503", &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription(own)})
	doc.Paths.Set("/api/v1/matches/{id}/stream", &openapi3.PathItem{Get: op})
	doc.Paths.Set("/readyz", &openapi3.PathItem{Get: withResponses()})

	addCommonFailures(doc)
	once, _ := json.Marshal(doc)
	addCommonFailures(doc)
	twice, _ := json.Marshal(doc)
	if string(once) != string(twice) {
		t.Fatalf("adding twice changed the document:\n%s\n%s", once, twice)
	}
	r503 := op.Responses.Value("503").Value
	if *r503.Description != own || r503.Headers["Retry-After"] == nil {
		t.Errorf("the declared 503 became %q with headers %v", *r503.Description, r503.Headers)
	}
	for _, code := range []string{"429", "431", "500", "507"} {
		if op.Responses.Value(code) == nil {
			t.Errorf("the stream did not get %s", code)
		}
	}
	if n := doc.Paths.Value("/readyz").Get.Responses.Len(); n != 0 {
		t.Errorf("a probe got %d common failures", n)
	}
}

func withResponses() *openapi3.Operation {
	op := openapi3.NewOperation()
	op.Responses = openapi3.NewResponses()
	op.Responses.Delete("default")
	return op
}
