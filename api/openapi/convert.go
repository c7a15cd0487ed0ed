// Package openapi builds the OpenAPI 3 document (openapi.yaml, served at /openapi.yaml) from
// the Swagger 2.0 document swag writes from the annotations of package api, and says in it
// what Swagger 2.0 cannot. What it needs of the API's wire types (the request examples and
// the shape of a problem) it is given, in Inputs.
package openapi

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"sigs.k8s.io/yaml"
)

// Swagger 2.0 (what swag writes) cannot say a few things the contract needs. Convert says
// them after converting, so the OpenAPI 3 document is the precise one:
//   - a response's media type: Swagger 2.0 lists "produces" per operation, so every status
//     would accept both JSON and problem+json. Here successes are application/json only and
//     errors application/problem+json only.
//   - a null inside an array: a hand.started event seen by one seat has null for each hand it
//     may not see, and swag has no tag for nullable items.
//   - security, nullable objects, error examples (contract.go), request examples
//     that succeed (sharpenRequests), and the failures every operation shares
//     (failures.go), so the annotations need not repeat them.

const mimeProblem = "application/problem+json"

// Inputs are what the document needs of the API's wire types.
type Inputs struct {
	// Requests are the request examples of each operation, by operation ID: each a request
	// that succeeds.
	Requests map[string][]Example
	// Problem is the problem+json body of an example error, as the API's wire type writes it.
	Problem func(p Problem) any
}

// Problem is what an example error says; Inputs.Problem makes the body of it.
type Problem struct {
	Code, Title, Detail, Instance, RequestID string
	Status                                   int
	// CurrentVersion is set with VERSION_CONFLICT only.
	CurrentVersion *int
}

// Convert converts a Swagger 2.0 document (docs/swagger.json) to the OpenAPI 3 YAML served at
// /openapi.yaml and kept in openapi.yaml. The output is deterministic: keys sorted.
func Convert(swaggerJSON []byte, in Inputs) ([]byte, error) {
	var doc2 openapi2.T
	if err := json.Unmarshal(swaggerJSON, &doc2); err != nil {
		return nil, fmt.Errorf("read swagger 2.0: %w", err)
	}
	doc3, err := openapi2conv.ToV3(&doc2)
	if err != nil {
		return nil, fmt.Errorf("convert to openapi 3: %w", err)
	}
	if err := sharpen(doc3, in); err != nil {
		return nil, err
	}
	js, err := json.Marshal(doc3)
	if err != nil {
		return nil, fmt.Errorf("encode openapi 3: %w", err)
	}
	out, err := yaml.JSONToYAML(js)
	if err != nil {
		return nil, fmt.Errorf("encode openapi 3 as yaml: %w", err)
	}
	return out, nil
}

// sharpen says what Swagger 2.0 could not (see the top of this file).
func sharpen(doc *openapi3.T, in Inputs) error {
	addCommonFailures(doc)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for code, resp := range op.Responses.Map() {
				status, err := strconv.Atoi(code)
				if err != nil || resp.Value == nil || resp.Value.Content == nil {
					continue
				}
				if status < 400 {
					delete(resp.Value.Content, mimeProblem)
					continue
				}
				mt := resp.Value.Content.Get(mimeProblem)
				if mt == nil {
					return fmt.Errorf("%s %s: response %d has no %s content", method, path, status, mimeProblem)
				}
				resp.Value.Content = openapi3.Content{mimeProblem: mt}
			}
		}
	}
	textBodies(doc)
	yamlBodies(doc)
	if err := sharpenNullables(doc); err != nil {
		return err
	}
	if err := sharpenSecurity(doc); err != nil {
		return err
	}
	if err := sharpenProblems(doc, in.Problem); err != nil {
		return err
	}
	if err := sharpenRequests(doc, in.Requests); err != nil {
		return err
	}
	data := doc.Components.Schemas["api.EventData"]
	if data == nil || data.Value == nil || data.Value.Properties["hands"] == nil {
		return fmt.Errorf("openapi: schema api.EventData.hands is missing")
	}
	hands := data.Value.Properties["hands"].Value
	if hands.Items == nil || hands.Items.Value == nil {
		return fmt.Errorf("openapi: schema api.EventData.hands has no items")
	}
	hands.Items.Value.Nullable = true
	return nil
}

// yamlBodies leaves a YAML answer's schema open: kin-openapi and oapi-codegen parse the YAML and
// see an object, Prism checks the text and sees a string, so a type would be wrong for one of them.
func yamlBodies(doc *openapi3.T) {
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, resp := range op.Responses.Map() {
				if resp.Value == nil {
					continue
				}
				for mt, media := range resp.Value.Content {
					if strings.HasSuffix(mt, "yaml") && media != nil && media.Schema != nil && media.Schema.Value != nil {
						media.Schema = openapi3.NewSchemaRef("", &openapi3.Schema{Description: media.Schema.Value.Description})
					}
				}
			}
		}
	}
}

// textBodies makes every text/* body of a success a string in the OpenAPI 3 document (called
// by sharpen). Swagger 2.0 has one schema per response for all of an operation's media types,
// so GET /export's 200 would otherwise promise the JSON object as text/plain too.
func textBodies(doc *openapi3.T) {
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for code, resp := range op.Responses.Map() {
				if status, err := strconv.Atoi(code); err != nil || status >= 400 || resp.Value == nil {
					continue
				}
				for mt, media := range resp.Value.Content {
					if strings.HasPrefix(mt, "text/") && media != nil {
						media.Schema = openapi3.NewSchemaRef("", openapi3.NewStringSchema())
					}
				}
			}
		}
	}
}

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
