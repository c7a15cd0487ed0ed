package openapi

import (
	"slices"
	"sort"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/domain"
)

// TestProblemCodesDocumented: Problem.code's enum in openapi.yaml is exactly the codes of
// problem.Rows, the one table from code to status, and every code has an example detail.
func TestProblemCodesDocumented(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromFile("../../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var documented, known []string
	for _, v := range doc.Components.Schemas["api.Problem"].Value.Properties["code"].Value.Enum {
		documented = append(documented, v.(string))
	}
	for _, row := range problem.Rows() {
		code := row.Code
		known = append(known, string(code))
		if _, ok := problemDetails[code]; !ok && code != domain.CodeInvalidRequest {
			t.Errorf("no example detail for %s", code)
		}
	}
	sort.Strings(documented)
	sort.Strings(known)
	if !slices.Equal(documented, known) {
		t.Fatalf("Problem.code enum %v, the table %v", documented, known)
	}
}
