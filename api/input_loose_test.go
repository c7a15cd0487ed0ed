package api_test

import (
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/tournament"
)

// TestBodilessJoin: a join needs no body, like decline and resign: none, an empty one or only
// white space joins with the player key's name; a body that is there is read strictly.
func TestBodilessJoin(t *testing.T) {
	h := newHarness(t)
	tb := h.createMatch(api.CreateMatchRequest{Listed: true, Players: []api.PlayerRequest{
		{Name: "host", Kind: "human"}, {Kind: "open"}, {Kind: "open"}, {Kind: "open"},
	}})
	for seat, body := range map[int]any{1: nil, 2: "", 3: " \n "} {
		name := []string{"", "Ada", "Bo", "Cy"}[seat]
		key := h.newPlayer(name).Key
		path := tb.path("/seats/" + string(rune('0'+seat)) + "/join")
		for _, junk := range []string{"[[[", "null", `{"x":1}`, `{"name":1}`} {
			h.do(http.MethodPost, path, junk, auth(key)...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
		}
		r := h.do(http.MethodPost, path, body, auth(key)...)
		if r.status != http.StatusCreated {
			t.Fatalf("join seat %d with body %q: %d %s", seat, body, r.status, r.body)
		}
		var out api.JoinResponse
		if r.decode(t, &out); out.Seat != seat || out.Match.Seats[seat].Name != name {
			t.Fatalf("join seat %d: %s", seat, r.body)
		}
	}
	// Without a key nor a body the seat has no name: refused for that, not for the body.
	other := h.createMatch(api.CreateMatchRequest{Listed: true, Players: []api.PlayerRequest{{Name: "host", Kind: "human"}, {Kind: "open"}}})
	p := h.do(http.MethodPost, other.path("/seats/1/join"), nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	if strings.Contains(p.Detail, "body") {
		t.Fatalf("an anonymous join without a body: %q", p.Detail)
	}
}

// TestIntegerRanges: an integer field of any request body that is not a whole number in its
// range, or does not fit one at all, or is a string, says the range; an explicit 0 is out of
// range like any other value (absent means the default).
func TestIntegerRanges(t *testing.T) {
	h := newHarness(t)
	key := h.newPlayer("Ada").Key
	const (
		clock  = "turn_seconds must be an integer from 10 to 604800, not "
		target = "target must be a multiple of 5 from 5 to 1000, not "
		rounds = "rounds must be an integer from 1 to 20, not "
	)
	two := `"players": [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human"}], `
	swiss := `"name": "Cup", "format": "2p", "system": "swiss", `
	cases := []struct{ path, body, detail string }{
		{"/api/v1/matches", two + `"turn_seconds": 10.5`, clock + "10.5"},
		{"/api/v1/matches", two + `"turn_seconds": 99999999999999999999`, clock + "99999999999999999999"},
		{"/api/v1/matches", two + `"turn_seconds": 5`, clock + "5"},
		{"/api/v1/matches", two + `"turn_seconds": 0`, clock + "0"},
		{"/api/v1/matches", two + `"turn_seconds": "60"`, clock + `"60"`},
		{"/api/v1/matches", two + `"turn_seconds": 1e3`, clock + "1e3"},
		{"/api/v1/matches", two + `"turn_seconds": 60, "autoplay_after": 0.5`, "autoplay_after must be an integer from 1 to 100, not 0.5"},
		{"/api/v1/matches", two + `"turn_seconds": 60, "autoplay_after": 101`, "autoplay_after must be an integer from 1 to 100, not 101"},
		{"/api/v1/matches", two + `"target": 10.5`, target + "10.5"},
		{"/api/v1/matches", two + `"target": 9223372036854775808`, target + "9223372036854775808"},
		{"/api/v1/seeks", `"format": "2p", "turn_seconds": 10.5`, clock + "10.5"},
		{"/api/v1/seeks", `"format": "2p", "turn_seconds": 0`, clock + "0"},
		{"/api/v1/seeks", `"format": "2p", "turn_seconds": 604801`, clock + "604801"},
		{"/api/v1/seeks", `"format": "2p", "target": 7`, target + "7"},
		{"/api/v1/seeks", `"format": "2p", "target": 0`, target + "0"},
		{"/api/v1/tournaments", swiss + `"rounds": 9223372036854775808`, rounds + "9223372036854775808"},
		{"/api/v1/tournaments", swiss + `"rounds": 21`, rounds + "21"},
		{"/api/v1/tournaments", swiss + `"rounds": 0`, rounds + "0"},
		{"/api/v1/tournaments", swiss + `"rounds": 2, "turn_seconds": 10.5`, clock + "10.5"},
		{"/api/v1/tournaments", swiss + `"rounds": 2, "turn_seconds": 0`, clock + "0"},
		{"/api/v1/tournaments", swiss + `"rounds": 2, "target": 0`, target + "0"},
		{"/api/v1/tournaments", swiss + `"rounds": 2, "target": 1e3`, target + "1e3"},
		{"/api/v1/tournaments", swiss + `"rounds": 2, "min_entries": 1`, "min_entries must be an integer from 2 to 256, not 1"},
		{"/api/v1/tournaments", swiss + `"rounds": 2, "max_entries": -1`, "max_entries must be an integer from 2 to 256, not -1"},
	}
	for _, c := range cases {
		body := "{" + c.body + "}"
		p := h.do(http.MethodPost, c.path, body, auth(key)...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
		if p.Detail != c.detail {
			t.Errorf("%s %s: detail %q, want %q", c.path, body, p.Detail, c.detail)
		}
	}
	// Absent, each is its default: a tournament's clock is 60 s, its target the rules'.
	var tv api.TournamentView
	r := h.do(http.MethodPost, "/api/v1/tournaments", "{"+swiss+`"rounds": 2}`, auth(key)...)
	if r.decode(t, &tv); r.status != http.StatusCreated || tv.Spec.TurnSeconds != 60 || tv.Spec.Target != 0 {
		t.Fatalf("a tournament with defaults: %d %s", r.status, r.body)
	}
}

// TestTimeFields: a time that is not RFC 3339 says so; starts_at is at most 30 days ahead, and
// in the future.
func TestTimeFields(t *testing.T) {
	h := newHarness(t)
	key := h.newPlayer("Ada").Key
	create := func(startsAt string) *reply {
		return h.do(http.MethodPost, "/api/v1/tournaments", `{"name": "Cup", "format": "2p", "system": "swiss", "rounds": 1, "starts_at": `+startsAt+`}`, auth(key)...)
	}
	for _, bad := range []string{`"tomorrow"`, `"2026-12-07"`, `"2026-12-07 18:00:00Z"`, `12`, `{}`, `[]`} {
		p := create(bad).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
		if want := "starts_at must be a time in RFC 3339, such as 2026-12-07T18:00:00Z"; p.Detail != want {
			t.Errorf("starts_at %s: detail %q, want %q", bad, p.Detail, want)
		}
	}
	now := time.Now().UTC()
	for _, far := range []time.Time{time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), now.Add(30*24*time.Hour + time.Hour)} {
		p := create(`"`+far.Format(time.RFC3339)+`"`).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
		if want := "starts_at must be at most 30 days ahead"; !strings.HasPrefix(p.Detail, want) {
			t.Errorf("starts_at %s: detail %q, want %q", far, p.Detail, want)
		}
	}
	create(`"`+now.Add(-time.Minute).Format(time.RFC3339)+`"`).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	if r := create(`"` + now.Add(29*24*time.Hour).Format(time.RFC3339) + `"`); r.status != http.StatusCreated {
		t.Fatalf("starts_at 29 days ahead: %d %s", r.status, r.body)
	}
}

// bodyRoute is a POST route that reads a JSON body, with a caller and a body it takes.
type bodyRoute struct{ name, path, key, body string }

// bodyRoutes are one of each route that reads a body, ready to take it.
func (h *harness) bodyRoutes(t *testing.T) []bodyRoute {
	t.Helper()
	ada, bo := h.newPlayer("Ada"), h.newPlayer("Bo")
	live := h.create(seed1, false, "human", "greedy")
	lobby := h.createMatch(api.CreateMatchRequest{Listed: true, Players: []api.PlayerRequest{{Name: "host", Kind: "human"}, {Kind: "open"}}})
	var tv api.TournamentView
	r := h.do(http.MethodPost, "/api/v1/tournaments", `{"name": "Cup", "format": "2p", "system": "swiss", "rounds": 1}`, auth(ada.Key)...)
	if r.decode(t, &tv); r.status != http.StatusCreated {
		t.Fatalf("create a tournament: %d %s", r.status, r.body)
	}
	return []bodyRoute{
		{"create a match", "/api/v1/matches", "", `{"players": [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human"}]}`},
		{"a move", live.path("/moves"), live.tokens[0], `{"action": "play", "tile": "5-5"}`},
		{"a join", lobby.path("/seats/1/join"), bo.Key, `{}`},
		{"create a player", "/api/v1/players", "", `{"name": "Cy"}`},
		{"create a tournament", "/api/v1/tournaments", ada.Key, `{"name": "Cup", "format": "2p", "system": "swiss", "rounds": 1}`},
		{"enter a tournament", "/api/v1/tournaments/" + tv.ID + "/entries", bo.Key, `{}`},
		{"a seek", "/api/v1/seeks", bo.Key, `{"format": "2p"}`},
	}
}

// TestNullBody: a body of null where an object is expected is 400 on every route that reads
// one, as an array or a string is.
func TestNullBody(t *testing.T) {
	h := newHarness(t)
	for _, rt := range h.bodyRoutes(t) {
		for _, null := range []string{"null", " null\n"} {
			p := h.do(http.MethodPost, rt.path, null, bearerOf(rt.key)...).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
			if want := "malformed JSON body: the body must be a JSON object"; p.Detail != want {
				t.Errorf("%s: null: detail %q, want %q", rt.name, p.Detail, want)
			}
		}
	}
}

// TestCharset: a body sent in a charset other than UTF-8 is 415 on every route that reads
// one; charset=utf-8, in any case, is UTF-8.
func TestCharset(t *testing.T) {
	h := newHarness(t)
	for _, rt := range h.bodyRoutes(t) {
		for _, ct := range []string{"application/json; charset=utf-16", "application/json;charset=ISO-8859-1", `application/json; charset="utf-32"`} {
			hdr := append(bearerOf(rt.key), "Content-Type", ct)
			h.do(http.MethodPost, rt.path, rt.body, hdr...).problem(t, http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE")
		}
	}
	for i, ct := range []string{"application/json; charset=utf-8", "application/json; charset=UTF-8", `application/json;charset="Utf-8"`} {
		r := h.do(http.MethodPost, "/api/v1/players", `{"name": "Charset `+string(rune('A'+i))+`"}`, "Content-Type", ct)
		if r.status != http.StatusCreated {
			t.Errorf("%s: %d %s", ct, r.status, r.body)
		}
	}
}

// TestSeekTarget: a seek answers the target its match is played to: the format's default when
// none was asked for.
func TestSeekTarget(t *testing.T) {
	h := newHarness(t)
	for i, c := range []struct {
		body string
		want int
	}{
		{`{"format": "2p"}`, 250},
		{`{"format": "3p"}`, 200},
		{`{"format": "4p"}`, 200},
		{`{"format": "2v2"}`, 250},
		{`{"format": "3p", "target": 100}`, 100},
	} {
		key := h.newPlayer("Seeker " + string(rune('A'+i))).Key
		var out api.SeekResponse
		r := h.do(http.MethodPost, "/api/v1/seeks", c.body, auth(key)...)
		if r.decode(t, &out); r.status != http.StatusCreated || out.Seek.Target != c.want {
			t.Errorf("%s: %d %s, want target %d", c.body, r.status, r.body, c.want)
		}
		r = h.do(http.MethodGet, "/api/v1/seeks/"+out.Seek.ID, nil, auth(key)...)
		if r.decode(t, &out); out.Seek.Target != c.want {
			t.Errorf("%s: read back as %s, want target %d", c.body, r.body, c.want)
		}
	}
}

// TestRequestRanges: every integer a request body takes has its range in openapi.yaml (from
// the field's tags, which the server checks: jsonbody), and the ranges are the rules' own.
func TestRequestRanges(t *testing.T) {
	doc, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	ranges := map[string][2]float64{} // property name -> [minimum, maximum]
	var walk func(at string, s *openapi3.Schema)
	walk = func(at string, s *openapi3.Schema) {
		if s.Type.Is("integer") {
			if s.Min == nil || s.Max == nil {
				t.Errorf("%s: an integer without a minimum and a maximum", at)
				return
			}
			name := at[strings.LastIndex(at, ".")+1:]
			if r, seen := ranges[name]; seen && r != [2]float64{*s.Min, *s.Max} {
				t.Errorf("%s: %v to %v, elsewhere %v", at, *s.Min, *s.Max, r)
			}
			ranges[name] = [2]float64{*s.Min, *s.Max}
		}
		for name, p := range s.Properties {
			walk(at+"."+name, p.Value)
		}
		if s.Items != nil {
			walk(at+".0", s.Items.Value)
		}
	}
	bodies := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody == nil {
				continue
			}
			bodies++
			walk(method+" "+path, op.RequestBody.Value.Content.Get("application/json").Schema.Value)
		}
	}
	want := map[string][2]float64{
		"turn_seconds":   {domain.MinTurnSeconds, domain.MaxTurnSeconds},
		"target":         {5, 1000},
		"autoplay_after": {1, 100},
		"rounds":         {1, tournament.MaxRounds},
		"min_entries":    {2, tournament.MaxEntries},
		"max_entries":    {2, tournament.MaxEntries},
		"step":           {1, domain.MaxStep},
	}
	if bodies < 7 || !maps.Equal(ranges, want) {
		t.Fatalf("%d bodies with integer ranges %v, want %v", bodies, ranges, want)
	}
	if domain.ValidateTarget(5) != nil || domain.ValidateTarget(1000) != nil || domain.ValidateTarget(0) == nil || domain.ValidateTarget(1005) == nil {
		t.Fatal("the rules' targets are not 5 to 1000")
	}
}
