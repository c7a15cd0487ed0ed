package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/notation"
	"github.com/allfives/allfives/repository/sqlite"
)

// replayFixture is a database file holding a finished match of bots and a live match of two
// humans with one move made, and the service over it.
type replayFixture struct {
	path        string
	svc         *referee.MatchService
	store       *sqlite.Store
	done, live  string
	liveTokens  []string
	doneLog     []domain.Event
	liveLog     []domain.Event
	doneVersion int
	liveVersion int
}

const replaySeed = "1220bce908f962d172dd71edf7f3215397eaadbf54c4d03b1fc8334e91eaf12a"

func newReplayFixture(t *testing.T) *replayFixture {
	t.Helper()
	ctx := context.Background()
	f := &replayFixture{path: filepath.Join(t.TempDir(), "allfives.db")}
	store, err := sqlite.Open(ctx, f.path, sqlite.Options{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	f.store = store
	f.svc = referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(3)})
	done, err := f.svc.Create(ctx, referee.CreateRequest{Seed: replaySeed, Players: []domain.PlayerInfo{
		{Name: "Ann", Kind: domain.Bot, Bot: "greedy"}, {Name: "Bob", Kind: domain.Bot, Bot: "random"}, {Name: "Cy", Kind: domain.Bot, Bot: "greedy"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	live, err := f.svc.Create(ctx, referee.CreateRequest{Seed: replaySeed, Players: []domain.PlayerInfo{
		{Name: "Ada", Kind: domain.Human}, {Name: "Bo", Kind: domain.Human},
	}})
	if err != nil {
		t.Fatal(err)
	}
	f.done, f.live = done.Match.ID, live.Match.ID
	for _, tk := range live.Tokens {
		f.liveTokens = append(f.liveTokens, tk.Token)
	}
	// seed1 deals seat 0 the 5-5, which it must lead.
	if _, err := f.svc.Act(ctx, f.live, domain.SeatViewer(0), referee.ActRequest{Move: domain.Play(domain.MustTile("5-5"), domain.Left)}); err != nil {
		t.Fatal(err)
	}
	if f.doneLog, err = store.Events(ctx, f.done, 0, 0); err != nil {
		t.Fatal(err)
	}
	if f.liveLog, err = store.Events(ctx, f.live, 0, 0); err != nil {
		t.Fatal(err)
	}
	f.doneVersion, f.liveVersion = len(f.doneLog), len(f.liveLog)
	if f.doneLog[f.doneVersion-1].Type != domain.TypeMatchEnded {
		t.Fatal("the bots' match did not end")
	}
	return f
}

// replay runs allfives replay with args and the environment env (nil: none).
func replay(t *testing.T, env map[string]string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), append([]string{"replay"}, args...), func(k string) string { return env[k] }, &out)
	return out.String(), err
}

func mustReplay(t *testing.T, env map[string]string, args ...string) string {
	t.Helper()
	out, err := replay(t, env, args...)
	if err != nil {
		t.Fatalf("replay %v: %v\n%s", args, err, out)
	}
	return out
}

func notationOf(t *testing.T, id string, events []domain.Event) string {
	t.Helper()
	var b strings.Builder
	if err := notation.Write(&b, id, events); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReplayFromDatabase: replay prints the notation of a stored match as the token's holder
// may see it (a finished match whole, a live one redacted), from --db or ALLFIVES_DB, with
// the id before or after the flags.
func TestReplayFromDatabase(t *testing.T) {
	f := newReplayFixture(t)
	want := notationOf(t, f.done, f.doneLog)
	if out := mustReplay(t, nil, f.done, "--db", f.path); out != want {
		t.Fatalf("finished match:\n%s\nwant:\n%s", out, want)
	}
	if out := mustReplay(t, map[string]string{"ALLFIVES_DB": f.path}, f.done); out != want {
		t.Fatalf("finished match from ALLFIVES_DB:\n%s", out)
	}
	if out := mustReplay(t, nil, "--db", f.path, f.done); out != want {
		t.Fatalf("finished match, id after the flags:\n%s", out)
	}
	if !strings.Contains(want, "seed          "+f.doneLog[f.doneVersion-1].Data.(domain.MatchEnded).Seed) {
		t.Fatalf("a finished match's record hides its seed:\n%s", want)
	}

	spectator := notationOf(t, f.live, domain.Spectator().RedactAll(f.liveLog, false))
	if out := mustReplay(t, nil, f.live, "--db", f.path); out != spectator {
		t.Fatalf("live match as a spectator:\n%s\nwant:\n%s", out, spectator)
	}
	seat1 := notationOf(t, f.live, domain.SeatViewer(1).RedactAll(f.liveLog, false))
	if out := mustReplay(t, map[string]string{"ALLFIVES_TOKEN": f.liveTokens[1]}, f.live, "--db", f.path); out != seat1 {
		t.Fatalf("live match as seat 1:\n%s\nwant:\n%s", out, seat1)
	}
	if seat1 == spectator || !strings.Contains(spectator, "(7 tiles)") {
		t.Fatalf("the spectator's record shows a hand:\n%s", spectator)
	}
}

// TestReplayStep: --step N prints the table right after event N: the event, the scores, the
// line and its count, whose turn it is and the seats' tiles, every hand once the match has
// ended, only the token holder's while it is live.
func TestReplayStep(t *testing.T) {
	f := newReplayFixture(t)
	ctx := context.Background()
	for _, step := range []int{2, 3, f.doneVersion / 2, f.doneVersion - 1, f.doneVersion} {
		out := mustReplay(t, nil, f.done, "--db", f.path, "--step", strconv.Itoa(step))
		_, view, err := f.svc.Replay(ctx, f.done, domain.Spectator(), step)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			fmt.Sprintf("All Fives match %s at step %d\n", f.done, step),
			fmt.Sprintf("event      %d. ", step),
			fmt.Sprintf("scores     side 0 %d, side 1 %d, side 2 %d (target %d)\n", view.Scores[0], view.Scores[1], view.Scores[2], view.Target),
			"S0 Ann, bot (greedy), side 0, ",
		}
		if hv := view.Hand; hv != nil {
			if view.Turn != nil {
				want = append(want, fmt.Sprintf("hand       %d, S%d to move\n", hv.Number, *view.Turn))
			} else {
				want = append(want, fmt.Sprintf("hand       %d, the last\n", hv.Number))
			}
			for s, hand := range hv.Hands {
				want = append(want, fmt.Sprintf("side %d, %s: %s\n", s, tilesText(len(hand)), strings.Join(domain.TileNames(hand), " ")))
			}
			if len(hv.Line) > 0 {
				want = append(want, fmt.Sprintf(" = %d\n", hv.Total))
			}
		}
		if view.WinnerSide != nil {
			want = append(want, fmt.Sprintf("result     side %d wins\n", *view.WinnerSide))
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Fatalf("step %d lacks %q:\n%s", step, w, out)
			}
		}
	}

	// The live match after seat 0's lead: seat 1 sees its own tiles, nobody else's.
	out := mustReplay(t, nil, f.live, "--db", f.path, "--step", strconv.Itoa(f.liveVersion), "--token", f.liveTokens[1])
	_, view, err := f.svc.Replay(ctx, f.live, domain.SeatViewer(1), f.liveVersion)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"event      3. S0 leads 5-5: the ends count 10, +10\n",
		"line       5-5\n", "ends       5-5 = 10\n", "hand       1, S1 to move\n",
		"S0 Ada, human, side 0, 6 tiles\n",
		"S1 Bo, human, side 1, 7 tiles: " + strings.Join(domain.TileNames(view.You.Tiles), " ") + "\n",
		"you        S1\n",
	} {
		if !strings.Contains(out, w) {
			t.Fatalf("live step lacks %q:\n%s", w, out)
		}
	}
}

func tilesText(n int) string {
	if n == 1 {
		return "1 tile"
	}
	return strconv.Itoa(n) + " tiles"
}

// TestReplayFromServer: --server asks a running server's API, and prints what the database
// path prints: the same record, the same table at a step.
func TestReplayFromServer(t *testing.T) {
	f := newReplayFixture(t)
	srv := httptest.NewServer(api.New(api.Config{Service: f.svc, Ready: f.store}))
	t.Cleanup(srv.Close)
	for _, args := range [][]string{
		{f.done},
		{f.done, "--step", "2"},
		{f.done, "--step", strconv.Itoa(f.doneVersion / 2)},
		{f.done, "--step", strconv.Itoa(f.doneVersion)},
		{f.live},
		{f.live, "--token", f.liveTokens[0]},
		{f.live, "--step", strconv.Itoa(f.liveVersion), "--token", f.liveTokens[1]},
	} {
		fromDB := mustReplay(t, nil, append(args, "--db", f.path)...)
		fromServer := mustReplay(t, nil, append(args, "--server", srv.URL+"/")...)
		if fromDB != fromServer {
			t.Fatalf("replay %v: from the server\n%s\nfrom the database\n%s", args, fromServer, fromDB)
		}
	}
	if _, err := replay(t, nil, "nope", "--server", srv.URL); err == nil || !strings.Contains(err.Error(), "MATCH_NOT_FOUND") {
		t.Fatalf("unknown match: %v", err)
	}
	if _, err := replay(t, nil, f.live, "--server", srv.URL, "--token", "bad"); err == nil || !strings.Contains(err.Error(), "UNAUTHORIZED") {
		t.Fatalf("bad token: %v", err)
	}
	if _, err := replay(t, nil, f.done, "--server", srv.URL, "--step", strconv.Itoa(f.doneVersion+1)); err == nil || !strings.Contains(err.Error(), "INVALID_REQUEST") {
		t.Fatalf("step out of range: %v", err)
	}
}

// TestReplayRefusals: what replay cannot do, it says, and it never creates a database.
func TestReplayRefusals(t *testing.T) {
	f := newReplayFixture(t)
	missing := filepath.Join(t.TempDir(), "none.db")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", f.path}, "one match id"},
		{[]string{"a", "b", "--db", f.path}, "one match id"},
		{[]string{"nope", "--db", f.path}, "no match"},
		{[]string{f.done, "--db", missing}, "no database"},
		{[]string{f.done, "--db", f.path, "--step", "0x"}, "invalid value"},
		{[]string{f.done, "--db", f.path, "--step", "-2"}, "1 or more"},
		{[]string{f.done, "--db", f.path, "--step", strconv.Itoa(f.doneVersion + 1)}, "step must be 1 to"},
		{[]string{f.live, "--db", f.path, "--token", "bad"}, "not a seat token"},
		{[]string{f.done, "--db", f.path, "--server", "http://localhost:1"}, "not both"},
		{[]string{f.done, "--server", "ftp://localhost:8080"}, "http or https URL"},
		{[]string{f.done, "--server", "localhost"}, "neither host:port"},
	} {
		if _, err := replay(t, nil, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("replay %v: %v, want an error saying %q", tc.args, err, tc.want)
		}
	}
	if _, err := replay(t, nil, f.done, "--db", missing); err == nil {
		t.Fatal("a missing database was created")
	}
	out, err := replay(t, nil, "-h")
	if err != nil || !strings.Contains(out, "usage: allfives replay <match id>") || !strings.Contains(out, "-step") {
		t.Fatalf("-h: %v\n%s", err, out)
	}
}
