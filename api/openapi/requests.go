package openapi

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// Example is one request example of an operation: a request that succeeds.
type Example struct {
	Name, Summary string
	Value         any
}

// sharpenRequests puts the request examples on their operations, replacing the one swag
// composes from field examples, which is no valid request.
func sharpenRequests(doc *openapi3.T, requests map[string][]Example) error {
	byID := map[string]*openapi3.Operation{}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			byID[op.OperationID] = op
		}
	}
	for id, examples := range requests {
		op := byID[id]
		if op == nil || op.RequestBody == nil || op.RequestBody.Value == nil {
			return fmt.Errorf("openapi: operation %s has no request body for its examples", id)
		}
		media := op.RequestBody.Value.Content.Get("application/json")
		if media == nil {
			return fmt.Errorf("openapi: operation %s takes no application/json body", id)
		}
		media.Example, media.Examples = nil, openapi3.Examples{}
		for _, ex := range examples {
			v := openapi3.NewExample(ex.Value)
			v.Summary = ex.Summary
			media.Examples[ex.Name] = &openapi3.ExampleRef{Value: v}
		}
	}
	return nil
}
