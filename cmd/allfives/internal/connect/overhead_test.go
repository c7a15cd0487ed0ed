package connect

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/cmd/allfives/internal/engine"
	"github.com/allfives/allfives/domain/bot"
)

// timingFile names the file a "timed" engine appends its timestamps to.
const timingFile = "ALLFIVES_ENGINE_TIMING"

// timed is the greedy reference engine that notes when each go reached it and when it
// answered: "go <unix ns>" and "move <unix ns>" lines in $ALLFIVES_ENGINE_TIMING.
func timed() error {
	f, err := os.OpenFile(os.Getenv(timingFile), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	in, inW := io.Pipe()
	go func() { // stdin, noting each go as it arrives
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			if w, _ := engine.Split(sc.Text()); w == engine.WordGo {
				fmt.Fprintf(f, "go %d\n", time.Now().UnixNano())
			}
			fmt.Fprintln(inW, sc.Text())
		}
		inW.Close()
	}()
	b := &engine.Bot{Name: "timed-greedy", Strategy: bot.NewGreedy()}
	return b.Run(ctxBackground(), in, moveStamper{os.Stdout, f})
}

// moveStamper notes each move line as it is written.
type moveStamper struct {
	out io.Writer
	log io.Writer
}

func (m moveStamper) Write(p []byte) (int, error) {
	if strings.HasPrefix(string(p), engine.WordMove+" ") || strings.Contains(string(p), "\n"+engine.WordMove+" ") {
		fmt.Fprintf(m.log, "move %d\n", time.Now().UnixNano())
	}
	return m.out.Write(p)
}

// gaps reads a timing file: for each move, the time until the engine's next go.
func gaps(tb testing.TB, path string) []time.Duration {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var out []time.Duration
	var moved int64
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		word, num, _ := strings.Cut(line, " ")
		ns, _ := strconv.ParseInt(num, 10, 64)
		switch {
		case word == "move":
			moved = ns
		case word == "go" && moved > 0:
			out = append(out, time.Duration(ns-moved))
			moved = 0
		}
	}
	return out
}

// BenchmarkProtocolOverhead plays one two-player match (greedy against greedy, target 250)
// through two connectors and their engines on a real server, then a match of the same bots
// inside the server, and reports for each the moves a second and the time a move, from the
// first deal to the end as the events record them; and for the engines the median and 95th
// percentile of the time from an engine's move to the next go either engine gets (the move
// sent and stored, the other connector told by its stream, the match read, its engine asked).
func BenchmarkProtocolOverhead(b *testing.B) {
	srv := startServer(b, nil)
	var connectTime, serverTime time.Duration
	var connectMoves, serverMoves int
	var engineGaps []time.Duration
	for i := range b.N {
		var span time.Duration
		ada, bo := newPlayer(b, srv.URL, fmt.Sprintf("Ada%d", i), true), newPlayer(b, srv.URL, fmt.Sprintf("Bo%d", i), true)
		timing := filepath.Join(b.TempDir(), "timing")
		b.Setenv(timingFile, timing)
		var out struct {
			Match struct {
				ID string `json:"id"`
			} `json:"match"`
		}
		call(b, srv.URL, ada.Key, http.MethodPost, "/matches", map[string]any{"players": []map[string]any{
			{"kind": "human", "player": "me"}, {"kind": "human", "player": bo.ID},
		}}, http.StatusCreated, &out)
		a := runConnector(b, Config{Server: srv.URL, Key: ada.Key, Engine: self(b) + " timed", Matches: 1})
		c := runConnector(b, Config{Server: srv.URL, Key: bo.Key, Engine: self(b) + " timed", AcceptChallenges: true, Matches: 1})
		for _, x := range []*connector{a, c} {
			if err := x.result(b, 5*time.Minute); err != nil {
				b.Fatal(err)
			}
		}
		moves, span := movesOf(b, srv.URL, out.Match.ID)
		connectMoves, connectTime = connectMoves+moves, connectTime+span
		engineGaps = append(engineGaps, gaps(b, timing)...)

		call(b, srv.URL, "", http.MethodPost, "/matches", map[string]any{"players": []map[string]any{
			{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"},
		}}, http.StatusCreated, &out)
		waitFor(b, time.Minute, "the bots' match to end", func() bool { // the bot pool plays it
			status, _ := matchState(b, srv.URL, out.Match.ID)
			return status == "finished"
		})
		moves, span = movesOf(b, srv.URL, out.Match.ID)
		serverMoves, serverTime = serverMoves+moves, serverTime+span
	}
	slices.Sort(engineGaps)
	b.ReportMetric(float64(connectMoves)/connectTime.Seconds(), "connect-moves/s")
	b.ReportMetric(float64(serverMoves)/serverTime.Seconds(), "server-moves/s")
	b.ReportMetric(float64(connectTime.Microseconds())/1000/float64(connectMoves), "connect-ms/move")
	b.ReportMetric(float64(serverTime.Microseconds())/1000/float64(serverMoves), "server-ms/move")
	if n := len(engineGaps); n > 0 {
		b.ReportMetric(float64(engineGaps[n/2].Microseconds())/1000, "engine-p50-ms")
		b.ReportMetric(float64(engineGaps[n*95/100].Microseconds())/1000, "engine-p95-ms")
	}
}

// movesOf counts the moves of a finished match (its plays, draws and passes) and the time
// they took, from its first deal to its end as its events record them.
func movesOf(tb testing.TB, base, id string) (int, time.Duration) {
	tb.Helper()
	var page struct {
		Events []struct {
			Type string    `json:"type"`
			At   time.Time `json:"at"`
		} `json:"events"`
	}
	n := 0
	var dealt, ended time.Time
	for after := 0; ; after += len(page.Events) {
		call(tb, base, "", http.MethodGet, fmt.Sprintf("/matches/%s/events?after=%d&limit=1000", id, after), nil, http.StatusOK, &page)
		if len(page.Events) == 0 {
			return n, ended.Sub(dealt)
		}
		for _, e := range page.Events {
			switch e.Type {
			case "tile.played", "tile.drawn", "turn.passed":
				n++
			case "hand.started":
				if dealt.IsZero() {
					dealt = e.At
				}
			case "match.ended":
				ended = e.At
			}
		}
	}
}
