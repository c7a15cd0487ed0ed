package api_test

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/tournament"
)

// publicOps answer anyone with no token; tokenOptional answer a seat token or a spectator;
// the rest need a seat token, or a player key (keyRequired).
var (
	publicOps = []string{"auditTournament", "checkLiveness", "checkReadiness", "createPlayer", "exportTournament", "getLeaderboard", "getMetrics", "getOpenAPI", "getPlayer", "getPlayerByName", "getPlayerRatings", "getTournament", "listMatches", "listTournaments"}
	// The tournaments' reads are public too (auditTournament, exportTournament, getTournament, listTournaments).
	tokenOptional = []string{"auditMatch", "createReview", "exportMatch", "getAnalysis", "getMatch", "getReview", "listEvents", "replayMatch", "streamEvents"}
	tokenRequired = []string{"cancelMatch", "createMatchTicket", "createRematch", "leaveSeat", "listLegalMoves", "makeMove", "resignMatch", "resumeSeat"}
	keyRequired   = []string{"cancelSeek", "cancelTournament", "createPlayerTicket", "createSeek", "createTournament", "declineSeat", "getCurrentPlayer", "getSeek", "joinTournament", "leaveTournament", "listPlayerPuzzles", "rotatePlayerKey", "startTournament"}
	keyOptional   = []string{"createBranch", "createMatch", "createPuzzleAttempt", "getNextPuzzle", "joinSeat", "listPlayerMatches", "streamPlayer"} // a key binds the seat to its player
)

// TestOpenAPIOperations: kin-openapi validates openapi.yaml; every operation has a camelCase
// verb operationId, unique; each says who may call it (security: [] when public, the bearer
// seat token or nothing when a spectator may read, the token alone when a seat must act).
func TestOpenAPIOperations(t *testing.T) {
	doc, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"SeatToken", "PlayerKey"} {
		if s := doc.Components.SecuritySchemes[name]; s == nil || s.Value.Type != "http" || s.Value.Scheme != "bearer" || strings.ContainsAny(s.Value.Description, "<>") {
			t.Fatalf("%s is not a bearer scheme with plain text: %+v", name, s)
		}
	}
	camel := regexp.MustCompile(`^(create|list|get|make|stream|replay|audit|export|check|join|leave|resume|rotate|decline|cancel|resign|start)[A-Z][A-Za-z]*$`)
	var public, optional, required, keyed, keyMaybe []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if !camel.MatchString(op.OperationID) {
				t.Errorf("%s %s: operationId %q is not a camelCase verb", method, path, op.OperationID)
			}
			if op.Security == nil {
				t.Errorf("%s %s: no security", method, path)
				continue
			}
			switch sec := *op.Security; {
			case len(sec) == 0:
				public = append(public, op.OperationID)
			case len(sec) == 2 && sec[0]["SeatToken"] != nil && len(sec[1]) == 0:
				optional = append(optional, op.OperationID)
			case len(sec) == 1 && sec[0]["SeatToken"] != nil:
				required = append(required, op.OperationID)
			case len(sec) == 1 && sec[0]["PlayerKey"] != nil:
				keyed = append(keyed, op.OperationID)
			case len(sec) == 2 && sec[0]["PlayerKey"] != nil && len(sec[1]) == 0:
				keyMaybe = append(keyMaybe, op.OperationID)
			default:
				t.Errorf("%s %s: security %v", method, path, sec)
			}
		}
	}
	for _, l := range [][]string{public, optional, required, keyed, keyMaybe} {
		sort.Strings(l)
	}
	if !slices.Equal(public, publicOps) || !slices.Equal(optional, tokenOptional) || !slices.Equal(required, tokenRequired) || !slices.Equal(keyed, keyRequired) || !slices.Equal(keyMaybe, keyOptional) {
		t.Fatalf("public %v, token optional %v, token required %v, key required %v, key optional %v", public, optional, required, keyed, keyMaybe)
	}
}

// TestOpenAPIErrorExamples: every error response has one example per code it may carry, each a
// valid problem with that response's status.
func TestOpenAPIErrorExamples(t *testing.T) {
	doc, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	problem := doc.Components.Schemas["api.Problem"].Value
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for code, resp := range op.Responses.Map() {
				if code < "400" {
					continue
				}
				media := resp.Value.Content.Get("application/problem+json")
				if media == nil || len(media.Examples) == 0 {
					t.Errorf("%s %s %s: no examples", method, path, code)
					continue
				}
				for name, ex := range media.Examples {
					v, ok := ex.Value.Value.(map[string]any)
					if !ok || v["code"] != name || v["status"] != float64(atoi(t, code)) {
						t.Errorf("%s %s %s: example %s is %v", method, path, code, name, ex.Value.Value)
						continue
					}
					if err := problem.VisitJSON(v); err != nil {
						t.Errorf("%s %s %s: example %s is no problem: %v", method, path, code, name, err)
					}
				}
			}
		}
	}
}

// TestOpenAPIEnums: closed sets are enums, and the enums are the server's sets.
func TestOpenAPIEnums(t *testing.T) {
	doc, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	enum := func(schema, prop string) []string {
		s := doc.Components.Schemas[schema].Value.Properties[prop].Value
		var out []string
		for _, v := range s.Enum {
			out = append(out, v.(string))
		}
		return out
	}
	for _, schema := range []string{"api.PlayerRequest", "api.Seat", "api.Player", "api.EnterTournamentRequest", "api.TournamentEntry"} {
		if got := enum(schema, "bot"); !slices.Equal(got, bot.WeakestFirst()) {
			t.Errorf("%s.bot enum %v, the strategies weakest first are %v", schema, got, bot.WeakestFirst())
		}
	}
	for _, schema := range []string{"api.CreateTournamentRequest", "api.TournamentSpec"} {
		if got := enum(schema, "system"); !slices.Equal(got, tournament.Systems()) {
			t.Errorf("%s.system enum %v, the systems are %v", schema, got, tournament.Systems())
		}
	}
	if got := slices.Sorted(maps.Keys(bot.Strategies(1))); !slices.Equal(got, slices.Sorted(slices.Values(bot.AllNames()))) {
		t.Errorf("the server serves the strategies %v, the enum lists %v", got, bot.AllNames())
	}
	for schema, props := range map[string][]string{
		"api.MoveRequest": {"action", "end"}, "api.MatchView": {"status"}, "api.Event": {"type"},
		"api.EventData": {"lead", "end", "outcome"}, "api.Problem": {"code"}, "api.AuditCheck": {"name"},
		"api.LegalMove": {"action", "end"}, "api.HistoryItem": {"status"}, "api.Status": {"status"},
	} {
		for _, p := range props {
			if len(enum(schema, p)) == 0 {
				t.Errorf("%s.%s has no enum", schema, p)
			}
		}
	}
}

// TestSwaggerUIOpensOpenAPI3: Swagger UI's definition menu lists the OpenAPI 3 document first,
// so that is the one it opens.
func TestSwaggerUIOpensOpenAPI3(t *testing.T) {
	h := newHarness(t)
	rec := httptest.NewRecorder()
	h.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/swagger/index.html", nil))
	body := rec.Body.String()
	first, second := strings.Index(body, `openapi.yaml",`), strings.Index(body, `doc.json",`)
	if rec.Code != http.StatusOK || first < 0 || second < 0 || first > second {
		t.Fatalf("Swagger UI's menu does not open /openapi.yaml first:\n%s", body)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
