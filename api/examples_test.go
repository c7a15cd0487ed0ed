package api_test

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/repository/storetest"
)

// TestRequestExamplesSucceed sends every request example of openapi.yaml to a real server and
// checks that each gets its operation's documented success status, so that the examples a
// reader (or Swagger UI's "Try it out") starts from cannot rot. The create examples come first;
// the other operations are sent to the match of the first create example, with seat 0's
// token, as a reader would after creating it.
func TestRequestExamplesSucceed(t *testing.T) {
	doc, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	type exampleOp struct {
		method, path string
		op           *openapi3.Operation
	}
	var ops []exampleOp
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody == nil {
				continue
			}
			media := op.RequestBody.Value.Content.Get("application/json")
			if media == nil || len(media.Examples) == 0 || media.Example != nil {
				t.Fatalf("%s %s: a request body needs named examples only", method, path)
			}
			ops = append(ops, exampleOp{method, path, op})
		}
	}
	// createMatch first: the others need its match; then a player, whose key creates the
	// tournament the bot joins.
	rank := map[string]int{"createMatch": 0, "createPlayer": 1, "createTournament": 2, "joinTournament": 3}
	at := func(o exampleOp) int {
		if r, ok := rank[o.op.OperationID]; ok {
			return r
		}
		return len(rank)
	}
	sort.SliceStable(ops, func(i, j int) bool { return at(ops[i]) < at(ops[j]) })
	if len(ops) == 0 || ops[0].op.OperationID != "createMatch" {
		t.Fatal("openapi.yaml has no createMatch examples")
	}

	h := newHarness(t, apitest.Reviews(nil))
	var match, lobby api.CreateMatchResponse
	var organiser api.CreatePlayerResponse // the tournaments' examples: its key, its tournament
	var cup api.TournamentView
	sent := 0
	for _, o := range ops {
		want := successStatus(t, o.op)
		media := o.op.RequestBody.Value.Content.Get("application/json")
		names := make([]string, 0, len(media.Examples))
		for name := range media.Examples {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			body, err := json.Marshal(media.Examples[name].Value.Value)
			if err != nil {
				t.Fatal(err)
			}
			path := strings.ReplaceAll(o.path, "{id}", match.Match.ID)
			var hdr []string
			switch o.op.OperationID {
			case "createMatch":
			case "createPlayer":
				path = "/api/v1/players" // each example a player of its own: the organiser
				body = []byte(`{"name": "Organiser ` + name + `"}`)
			case "createTournament", "joinTournament":
				path = strings.ReplaceAll(o.path, "{id}", cup.ID)
				hdr = auth(organiser.Key)
			case "joinSeat": // the lobby example's open seat, which anyone may take
				path = strings.ReplaceAll(strings.ReplaceAll(o.path, "{id}", lobby.Match.ID), "{seat}", "1")
			case "createPuzzleAttempt": // a stored puzzle whose legal moves hold the example's
				p := storetest.PuzzleFixture("pzexample", match.Match.ID, 1, 25, "")
				if err := h.Store.(puzzles.Store).PutPuzzles(context.Background(), []puzzles.Puzzle{p}); err != nil {
					t.Fatal(err)
				}
				path = strings.ReplaceAll(o.path, "{id}", p.ID)
			case "createBranch": // a finished match's decision, whichever its seq is
				done := h.finishedMatch(api.ExampleSeed)
				path = strings.ReplaceAll(o.path, "{id}", done.id)
				var ex api.CreateBranchRequest
				if err := json.Unmarshal(body, &ex); err != nil {
					t.Fatal(err)
				}
				body, _ = json.Marshal(api.CreateBranchRequest{Step: done.reviewOf().Decisions[0].Seq, Bot: ex.Bot})
			case "createSeek": // a player's key: a seek is a player's
				var p api.CreatePlayerResponse
				h.do("POST", "/api/v1/players", api.CreatePlayerRequest{Name: "Seeker " + name}).decode(t, &p)
				hdr = auth(p.Key)
			default:
				hdr = auth(match.Tokens[0].Token)
			}
			r := h.do(strings.ToUpper(o.method), path, body, hdr...)
			if r.status != want {
				t.Fatalf("%s example %s: %d %s, want %d", o.op.OperationID, name, r.status, r.body, want)
			}
			if o.op.OperationID == "createMatch" && name == "humanVsBot" {
				r.decode(t, &match)
			}
			if o.op.OperationID == "createMatch" && name == "lobby" {
				r.decode(t, &lobby)
			}
			if o.op.OperationID == "createPlayer" {
				r.decode(t, &organiser)
			}
			if o.op.OperationID == "createTournament" {
				r.decode(t, &cup)
			}
			sent++
		}
	}
	if match.Match.ID == "" || sent < 3 {
		t.Fatalf("sent %d examples; the humanVsBot create example is missing", sent)
	}
}

// successStatus is the one 2XX status an operation documents.
func successStatus(t *testing.T, op *openapi3.Operation) int {
	t.Helper()
	var found []int
	for code := range op.Responses.Map() {
		if n, err := strconv.Atoi(code); err == nil && n >= 200 && n < 300 {
			found = append(found, n)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s documents success statuses %v, want one", op.OperationID, found)
	}
	return found[0]
}
