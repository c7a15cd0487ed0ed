package openapi

import (
	"encoding/json"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestNullableRefsAcceptNull: in openapi.yaml every nullable property that wraps a $ref names a
// schema that accepts null itself, as OpenAPI 3.0.3 reads it (nullable beside allOf does not
// widen the $ref'd schema), so hand.left, hand.right and match.hand validate when null.
func TestNullableRefsAcceptNull(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromFile("../../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	wrapped := 0
	for owner, schema := range doc.Components.Schemas {
		for name, prop := range schema.Value.Properties {
			p := prop.Value
			if !p.Nullable {
				continue
			}
			for _, sub := range p.AllOf {
				wrapped++
				if err := sub.Value.VisitJSON(nil); err != nil {
					t.Errorf("%s.%s is nullable, but %s refuses null: %v", owner, name, sub.Ref, err)
				}
			}
		}
	}
	if wrapped < 3 { // hand.left, hand.right, match.hand
		t.Fatalf("found %d nullable $refs, want at least 3", wrapped)
	}
}

// TestNullableRefNamedElsewhereIsInlined: a schema a non-nullable property also names stays
// refusing null there, and the nullable property gets its own nullable copy.
func TestNullableRefNamedElsewhereIsInlined(t *testing.T) {
	const src = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},
	"components":{"schemas":{
	  "End":{"type":"object","properties":{"pips":{"type":"integer"}},"required":["pips"]},
	  "Hand":{"type":"object","properties":{
	    "left":{"allOf":[{"$ref":"#/components/schemas/End"}],"nullable":true,"description":"null before the lead"},
	    "last":{"$ref":"#/components/schemas/End"}}},
	  "Match":{"type":"object","properties":{
	    "hand":{"allOf":[{"$ref":"#/components/schemas/Hand"}],"nullable":true}}}}}}`
	doc, err := openapi3.NewLoader().LoadFromData([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := sharpenNullables(doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Components.Schemas
	if !s["Hand"].Value.Nullable {
		t.Error("Hand, named only by the nullable match.hand, does not accept null")
	}
	if s["End"].Value.Nullable || s["End"].Value.VisitJSON(nil) == nil {
		t.Error("End is named by the non-nullable hand.last too, yet accepts null")
	}
	left := s["Hand"].Value.Properties["left"]
	if left.Ref != "" || len(left.Value.AllOf) != 0 || left.Value.Description != "null before the lead" {
		js, _ := json.Marshal(left)
		t.Fatalf("hand.left is not an inline copy of End with its description: %s", js)
	}
	if err := left.Value.VisitJSON(nil); err != nil {
		t.Errorf("hand.left refuses null: %v", err)
	}
	if err := left.Value.VisitJSON(map[string]any{"pips": 5.0}); err != nil {
		t.Errorf("hand.left refuses an end: %v", err)
	}
}
