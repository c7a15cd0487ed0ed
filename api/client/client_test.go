package client_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/api/client"
)

// newServer is the real server over a SQLite file, on a local port.
func newServer(t *testing.T) string {
	t.Helper()
	return apitest.Server(t, 5).URL
}

// bearer is the request editor that sends a seat token.
func bearer(token string) client.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

// TestPlayWholeMatch plays a human seat against a greedy bot to the end through the generated
// client only: create, read, list legal moves, move with If-Match until the match is finished;
// then the audit holds and the export's hash chain is the one its raw_data gives.
func TestPlayWholeMatch(t *testing.T) {
	ctx := context.Background()
	c, err := client.NewClientWithResponses(newServer(t))
	if err != nil {
		t.Fatal(err)
	}
	greedy, ada, bob := client.ApiPlayerRequestBot("greedy"), "Ada", "Bob"
	created, err := c.CreateMatchWithResponse(ctx, client.CreateMatchJSONRequestBody{Players: []client.ApiPlayerRequest{
		{Name: &ada, Kind: client.ApiPlayerRequestKind("human")}, {Name: &bob, Kind: "bot", Bot: &greedy},
	}})
	if err != nil || created.JSON201 == nil {
		t.Fatalf("create: %v %d %s", err, created.StatusCode(), created.Body)
	}
	id, token := created.JSON201.Match.Id, bearer(created.JSON201.Tokens[0].Token)
	moves := 0
	for ; moves < 2000; moves++ {
		view, err := c.GetMatchWithResponse(ctx, id, nil, token)
		if err != nil || view.JSON200 == nil {
			t.Fatalf("get: %v %d %s", err, view.StatusCode(), view.Body)
		}
		if view.JSON200.Status == "finished" {
			break
		}
		legal, err := c.ListLegalMovesWithResponse(ctx, id, token)
		if err != nil || legal.JSON200 == nil || len(legal.JSON200.LegalMoves) == 0 {
			t.Fatalf("legal moves at version %d: %v %s", view.JSON200.Version, err, legal.Body)
		}
		m := legal.JSON200.LegalMoves[0]
		body := client.MakeMoveJSONRequestBody{Action: client.ApiMoveRequestAction(m.Action), Tile: m.Tile}
		if m.End != nil {
			end := client.ApiMoveRequestEnd(*m.End)
			body.End = &end
		}
		version := view.HTTPResponse.Header.Get("ETag")
		res, err := c.MakeMoveWithResponse(ctx, id, &client.MakeMoveParams{IfMatch: &version}, body, token)
		if err != nil || res.JSON200 == nil || len(res.JSON200.Events) == 0 {
			t.Fatalf("move %+v: %v %d %s", body, err, res.StatusCode(), res.Body)
		}
	}
	if moves == 0 || moves == 2000 {
		t.Fatalf("the match took %d moves", moves)
	}

	audit, err := c.AuditMatchWithResponse(ctx, id)
	if err != nil || audit.JSON200 == nil || !audit.JSON200.Ok {
		t.Fatalf("audit: %v %s", err, audit.Body)
	}
	export, err := c.ExportMatchWithResponse(ctx, id, nil)
	if err != nil || export.JSON200 == nil {
		t.Fatalf("export: %v %s", err, export.Body)
	}
	var prev []byte
	for _, e := range export.JSON200.Events {
		h := sha256.New()
		h.Write(prev)
		binary.Write(h, binary.BigEndian, uint64(e.Seq))
		h.Write([]byte(e.Type))
		h.Write([]byte(*e.RawData))
		prev = h.Sum(nil)
		if *e.Hash != hex.EncodeToString(prev) {
			t.Fatalf("seq %d: hash %s, the formula gives %x", e.Seq, *e.Hash, prev)
		}
	}
	if audit.JSON200.HeadHash == nil || *audit.JSON200.HeadHash != hex.EncodeToString(prev) {
		t.Fatalf("audit head %v, export chain %x", audit.JSON200.HeadHash, prev)
	}

	// A problem decodes into the documented type too.
	again, err := c.MakeMoveWithResponse(ctx, id, nil, client.MakeMoveJSONRequestBody{Action: "draw"}, token)
	if err != nil || again.ApplicationproblemJSON409 == nil || again.ApplicationproblemJSON409.Code != "MATCH_FINISHED" {
		t.Fatalf("a move on a finished match: %v %d %s", err, again.StatusCode(), again.Body)
	}
}

// TestClientIsFresh regenerates the client from openapi.yaml with the committed configuration
// and fails when client.gen.go differs: run go generate ./... and commit the result.
func TestClientIsFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs oapi-codegen")
	}
	// The committed configuration, writing into a temporary directory instead.
	tmp := t.TempDir()
	cfg, err := os.ReadFile("oapi-codegen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "client.gen.go")
	cfg = []byte(strings.Replace(string(cfg), "output: client.gen.go", "output: "+out, 1))
	if !strings.Contains(string(cfg), out) {
		t.Fatal("oapi-codegen.yaml has no line output: client.gen.go")
	}
	if err := os.WriteFile(filepath.Join(tmp, "cfg.yaml"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "tool", "oapi-codegen", "-config", filepath.Join(tmp, "cfg.yaml"), "../../openapi.yaml")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("oapi-codegen: %v\n%s", err, out)
	}
	fresh, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("client.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(fresh) != string(committed) {
		t.Fatal("api/client/client.gen.go is stale: run go generate ./... and commit the result")
	}
}

// TestReadmeExampleIsCompiled: the README's Go example is the body of Example, which the
// compiler checks, so the README cannot drift from the client.
func TestReadmeExampleIsCompiled(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "import \"github.com/allfives/allfives/api/client\"\n\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("README.md has no Go client example")
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(src), "func Example() {\n")
	body = body[:strings.LastIndex(body, "}")]
	var lines []string
	for _, l := range strings.Split(body, "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	if got, want := strings.TrimSpace(block), strings.TrimSpace(strings.Join(lines, "\n")); got != want {
		t.Fatalf("README.md's Go example is not Example's body:\n%s\n---\n%s", got, want)
	}
}

// TestReadmeExampleFlow makes the player half of the README's example against a real server:
// a player's key binds the creator's seat, plays it, and turn=me lists the match while it is
// the player's turn and not once it has moved.
func TestReadmeExampleFlow(t *testing.T) {
	ctx := context.Background()
	c, err := client.NewClientWithResponses(newServer(t))
	if err != nil {
		t.Fatal(err)
	}
	player, err := c.CreatePlayerWithResponse(ctx, client.CreatePlayerJSONRequestBody{Name: "Grace"})
	if err != nil || player.JSON201 == nil {
		t.Fatalf("create player: %v %s", err, player.Body)
	}
	asGrace, me, bob := bearer(player.JSON201.Key), "me", "Bob"
	random := client.ApiPlayerRequestBot("random")
	bound, err := c.CreateMatchWithResponse(ctx, client.CreateMatchJSONRequestBody{
		Players: []client.ApiPlayerRequest{{Kind: "human", Player: &me}, {Name: &bob, Kind: "bot", Bot: &random}},
	}, asGrace)
	if err != nil || bound.JSON201 == nil {
		t.Fatalf("create as a player: %v %d %s", err, bound.StatusCode(), bound.Body)
	}
	id := bound.JSON201.Match.Id
	turnMe := client.ListPlayerMatchesParamsTurn("me")
	myTurns := func() []string {
		t.Helper()
		mine, err := c.ListPlayerMatchesWithResponse(ctx, player.JSON201.Player.Id, &client.ListPlayerMatchesParams{Turn: &turnMe}, asGrace)
		if err != nil || mine.JSON200 == nil {
			t.Fatalf("my matches: %v %d %s", err, mine.StatusCode(), mine.Body)
		}
		var ids []string
		for _, item := range mine.JSON200.Matches {
			ids = append(ids, item.Id)
		}
		return ids
	}
	// When the bot opens the deal it plays at once, off the request; wait for Grace's turn.
	for i := 0; ; i++ {
		view, err := c.GetMatchWithResponse(ctx, id, nil, asGrace)
		if err != nil || view.JSON200 == nil {
			t.Fatalf("view with the key: %v %s", err, view.Body)
		}
		if view.JSON200.Turn != nil && *view.JSON200.Turn == 0 {
			break
		}
		if i == 200 {
			t.Fatalf("never Grace's turn: %s", view.Body)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := myTurns(); len(got) != 1 || got[0] != id {
		t.Fatalf("turn=me before the move = %v, want [%s]", got, id)
	}
	legal, err := c.ListLegalMovesWithResponse(ctx, id, asGrace)
	if err != nil || legal.JSON200 == nil || len(legal.JSON200.LegalMoves) == 0 {
		t.Fatalf("legal moves with the key: %v %s", err, legal.Body)
	}
	m := legal.JSON200.LegalMoves[0]
	move := client.MakeMoveJSONRequestBody{Action: client.ApiMoveRequestAction(m.Action), Tile: m.Tile}
	if m.End != nil {
		end := client.ApiMoveRequestEnd(*m.End)
		move.End = &end
	}
	res, err := c.MakeMoveWithResponse(ctx, id, nil, move, asGrace)
	if err != nil || res.JSON200 == nil {
		t.Fatalf("move with the key: %v %d %s", err, res.StatusCode(), res.Body)
	}
	if res.JSON200.Match.Status == "in_progress" && res.JSON200.Match.Turn != nil && *res.JSON200.Match.Turn != 0 {
		if got := myTurns(); len(got) != 0 {
			t.Fatalf("turn=me while the bot is to move = %v, want none", got)
		}
	}
}
