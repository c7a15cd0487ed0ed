package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestJSONKeysAreExact: encoding/json alone would match "Action" to action and let the last of
// two equal keys win; a body whose meaning depends on that is refused before anything moves.
func TestJSONKeysAreExact(t *testing.T) {
	h := newHarness(t, options{})
	tb := h.create(seed1, false, "human", "human")
	for _, body := range []string{
		`{"action":"draw","action":"play","tile":"5-5"}`,
		`{"action":"play","tile":"5-5","Action":"draw"}`,
		`{"Action":"play","Tile":"5-5"}`,
		`{"action":"play","tile":"4-4","tile":"5-5"}`,
	} {
		p := h.do(http.MethodPost, tb.path("/moves"), body, auth(tb.tokens[0])...).problem(t, 400, "INVALID_REQUEST")
		if !strings.Contains(p.Detail, "more than once") && !strings.Contains(p.Detail, "case-sensitive") {
			t.Errorf("%s: detail %q", body, p.Detail)
		}
	}
	for _, body := range []string{
		`{"players":[{"name":"A","kind":"human","Name":"B"},{"name":"C","kind":"human"}]}`,
		`{"players":[{"name":"A","kind":"human"},{"name":"C","kind":"human"}],"Seed":"00"}`,
	} {
		h.do(http.MethodPost, "/api/v1/matches", body).problem(t, 400, "INVALID_REQUEST")
	}
	if v := tb.view(-1); v.Version != 2 {
		t.Fatalf("an ambiguous body moved: version %d", v.Version)
	}
}
