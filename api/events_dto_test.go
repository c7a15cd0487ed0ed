package api_test

import (
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/allfives/allfives/domain"
)

// TestEventTypeEnumIsDomainEventTypes: the enum openapi.yaml gives Event.type, which swag
// copies from the literal tag on api.Event, is exactly domain.EventTypes, so a new event type
// fails here until the contract lists it (and a retired name, until the contract drops it).
func TestEventTypeEnumIsDomainEventTypes(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromFile("../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	schema := doc.Components.Schemas["api.Event"]
	if schema == nil || schema.Value.Properties["type"] == nil {
		t.Fatal("openapi.yaml has no api.Event schema with a type property")
	}
	var documented, known []string
	for _, v := range schema.Value.Properties["type"].Value.Enum {
		s, ok := v.(string)
		if !ok {
			t.Fatalf("Event.type enum holds %v (%T), not a string", v, v)
		}
		documented = append(documented, s)
	}
	for _, typ := range domain.EventTypes {
		known = append(known, string(typ))
	}
	slices.Sort(documented)
	slices.Sort(known)
	if !slices.Equal(documented, known) {
		t.Fatalf("Event.type enum in openapi.yaml is %v, domain.EventTypes is %v", documented, known)
	}
}
