package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/memstore"
)

// TestSeedWithOpenSeatsRefused: whoever chooses a seed can compute every hand, so a create
// with a seed and an open seat, listed or not, is 400 SEED_WITH_OPEN_SEATS with a detail that
// says why; the same match without a seed is created.
func TestSeedWithOpenSeatsRefused(t *testing.T) {
	h := newHarness(t)
	for _, listed := range []bool{false, true} {
		req := api.CreateMatchRequest{Seed: seed1, Listed: listed, Players: []api.PlayerRequest{{Name: "Ann", Kind: "human"}, {Kind: "open"}}}
		p := h.do(http.MethodPost, "/api/v1/matches", req).problem(t, 400, "SEED_WITH_OPEN_SEATS")
		if !strings.Contains(p.Detail, "compute every hand") || p.Title != "Seed with open seats" {
			t.Errorf("listed %v: %+v", listed, p)
		}
		req.Seed = ""
		h.createMatch(req)
	}
	if n := len(h.lobby()); n != 1 {
		t.Errorf("the lobby has %d matches, want the one created without a seed", n)
	}
}

// TestHistoryAndLobbyItemsCarrySeeded: every history and lobby item says whether the creator
// chose the seed. The store here is memstore, which keeps the whole summary.
func TestHistoryAndLobbyItemsCarrySeeded(t *testing.T) {
	h := newHarness(t, apitest.WrapStore(func(referee.EventStore) referee.EventStore { return memstore.New() }))
	seeded := h.create(seed1, false, "human", "human")
	drawn := h.create("", false, "human", "human")
	waiting := h.createMatch(api.CreateMatchRequest{Listed: true, Players: []api.PlayerRequest{{Name: "Ann", Kind: "human"}, {Kind: "open"}}})
	for _, path := range []string{"/api/v1/matches", "/api/v1/matches?status=in_progress", "/api/v1/matches?status=waiting"} {
		r := h.do(http.MethodGet, path, nil)
		var raw struct {
			Matches []map[string]json.RawMessage `json:"matches"`
		}
		r.decode(t, &raw)
		if len(raw.Matches) == 0 {
			t.Fatalf("%s: no matches", path)
		}
		for _, m := range raw.Matches {
			var id string
			if err := json.Unmarshal(m["id"], &id); err != nil {
				t.Fatal(err)
			}
			want := map[string]string{seeded.id: "true", drawn.id: "false", waiting.id: "false"}[id]
			if got := string(m["seeded"]); got != want {
				t.Errorf("%s: match %s has seeded %q, want %s", path, id, got, want)
			}
		}
	}
}

// TestTargetZeroRefused: target is absent or valid. An explicit 0 is refused like -5, not read
// as absent; absent is still the table's default.
func TestTargetZeroRefused(t *testing.T) {
	h := newHarness(t)
	players := `"players": [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human"}]`
	for _, target := range []string{"0", "-5", "3", "1005"} {
		p := h.do(http.MethodPost, "/api/v1/matches", `{`+players+`, "target": `+target+`}`).problem(t, 400, "INVALID_REQUEST")
		if !strings.Contains(p.Detail, "target must be a multiple of 5 from 5 to 1000, not "+target) {
			t.Errorf("target %s: detail %q", target, p.Detail)
		}
	}
	for body, want := range map[string]int{`{` + players + `}`: 250, `{` + players + `, "target": 5}`: 5} {
		r := h.do(http.MethodPost, "/api/v1/matches", body)
		var out api.CreateMatchResponse
		r.decode(t, &out)
		if r.status != http.StatusCreated || out.Match.Target != want {
			t.Errorf("%s: %d, target %d; want 201, %d", body, r.status, out.Match.Target, want)
		}
	}
}

// TestClockZeroRefused: turn_seconds and autoplay_after are absent or valid, like target: an
// explicit 0 is refused, not read as "no clock" or "the default".
func TestClockZeroRefused(t *testing.T) {
	h := newHarness(t)
	players := `"players": [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human"}]`
	for want, body := range map[string]string{
		"turn_seconds must be an integer from 10 to 604800, not 0": `"turn_seconds": 0`,
		"autoplay_after must be an integer from 1 to 100, not 0":   `"turn_seconds": 60, "autoplay_after": 0`,
	} {
		p := h.do(http.MethodPost, "/api/v1/matches", `{`+players+`, `+body+`}`).problem(t, 400, "INVALID_REQUEST")
		if p.Detail != want {
			t.Errorf("%s: detail %q, want %q", body, p.Detail, want)
		}
	}
	r := h.do(http.MethodPost, "/api/v1/matches", `{`+players+`, "turn_seconds": 60}`)
	var out api.CreateMatchResponse
	r.decode(t, &out)
	if r.status != http.StatusCreated || out.Match.TurnSeconds != 60 || out.Match.AutoplayAfter != 3 {
		t.Errorf("a clock with the default autoplay_after: %d %s", r.status, r.body)
	}
}

// TestHiddenNamesRefused: names that hide a character printing as nothing, or look like
// nothing at all, are refused at create and at join with a detail naming the character.
func TestHiddenNamesRefused(t *testing.T) {
	h := newHarness(t)
	tb := h.createMatch(api.CreateMatchRequest{Listed: true, Players: []api.PlayerRequest{{Name: "Ann", Kind: "human"}, {Kind: "open"}}})
	for _, name := range []string{"\u200b", "\u3164", "\ufeff", "A\u200bda", "A\u00adda", "A\u2060da", "\u2800", "Ada\ufe0f"} {
		req := api.CreateMatchRequest{Players: []api.PlayerRequest{{Name: "Bo", Kind: "human"}, {Name: name, Kind: "human"}}}
		p := h.do(http.MethodPost, "/api/v1/matches", req).problem(t, 400, "INVALID_REQUEST")
		if !strings.HasPrefix(p.Detail, "players[1].name must") {
			t.Errorf("create %+q: detail %q", name, p.Detail)
		}
		p = tb.join(1, name, "").problem(t, 400, "INVALID_REQUEST")
		if !strings.HasPrefix(p.Detail, "name must") {
			t.Errorf("join %+q: detail %q", name, p.Detail)
		}
	}
	if v := tb.view(-1); len(v.OpenSeats) != 1 {
		t.Fatalf("a refused name took a seat: open seats %v", v.OpenSeats)
	}
}

// TestSameNamesInOneMatch: names one under the PRECIS Nickname comparison (case and width
// ignored) cannot sit in one match, at create or at join: 400 INVALID_REQUEST. A name is kept
// and shown in its enforced form.
func TestSameNamesInOneMatch(t *testing.T) {
	h := newHarness(t)
	for _, other := range []string{"Ada", "ada", "ＡＤＡ", " ADA"} {
		req := api.CreateMatchRequest{Players: []api.PlayerRequest{{Name: "Ada", Kind: "human"}, {Name: other, Kind: "bot", Bot: "greedy"}}}
		p := h.do(http.MethodPost, "/api/v1/matches", req).problem(t, 400, "INVALID_REQUEST")
		if !strings.Contains(p.Detail, "same name as players[0]") {
			t.Errorf("create Ada and %q: detail %q", other, p.Detail)
		}
	}
	tb := h.createMatch(api.CreateMatchRequest{Listed: true, Players: []api.PlayerRequest{{Name: "Ada", Kind: "human"}, {Kind: "open"}, {Kind: "open"}}})
	for _, name := range []string{"ada", "ＡＤＡ"} {
		p := tb.join(1, name, "").problem(t, 400, "INVALID_REQUEST")
		if !strings.Contains(p.Detail, "same name as seat 0") {
			t.Errorf("join as %q beside Ada: detail %q", name, p.Detail)
		}
	}
	if j := tb.mustJoin(1, "ＢＯ", ""); j.Match.Seats[1].Name != "BO" {
		t.Errorf("the name is kept as %q, not BO", j.Match.Seats[1].Name)
	}
	tb.join(2, "bo", "").problem(t, 400, "INVALID_REQUEST")
	tb.mustJoin(2, "Cy", "")
}
