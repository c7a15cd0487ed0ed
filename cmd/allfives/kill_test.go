package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/repository/postgres/pgtest"
)

// TestMain lets the test binary run as the allfives command, so a test can start real server
// processes (and kill them) without building anything: $ALLFIVES_TEST_RUN holds the arguments.
func TestMain(m *testing.M) {
	if args := os.Getenv("ALLFIVES_TEST_RUN"); args != "" {
		os.Args = append([]string{os.Args[0]}, strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// process is an allfives serve running as a child process.
type process struct {
	cmd  *exec.Cmd
	base string
}

// spawn starts `allfives serve` on url in a child process and returns once it listens.
func spawn(t *testing.T, url string) *process {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "ALLFIVES_TEST_RUN=serve --limits off --addr 127.0.0.1:0 --db "+url)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var line map[string]any
			if json.Unmarshal(sc.Bytes(), &line) == nil && line["msg"] == "listening" {
				addr <- line["addr"].(string)
			}
		}
	}()
	select {
	case a := <-addr:
		return &process{cmd: cmd, base: "http://" + a}
	case <-time.After(time.Minute):
		t.Fatal("the child server did not listen within a minute")
		return nil
	}
}

// TestKillOneInstance: two server processes on one PostgreSQL database, 8 matches played
// through both. Partway, one process is killed with SIGKILL. The clients carry on through the
// survivor, retrying a move whose answer the killed process never sent with the same
// Idempotency-Key. Every move acknowledged by either process is in the log, no move is stored
// twice, and every match audits clean.
func TestKillOneInstance(t *testing.T) {
	url := pgtest.URL(t)
	procs := []*process{spawn(t, url), spawn(t, url)}
	var dead atomic.Bool
	var acked atomic.Int64
	const matches, upTo = 8, 80
	ids := make([]string, matches)
	opening := make([]int, matches)
	logs := make([][]api.Event, matches)
	var wg sync.WaitGroup
	for i := range matches {
		wg.Go(func() { ids[i], opening[i], logs[i] = playThrough(t, procs, &dead, &acked, i, upTo) })
	}
	for acked.Load() < matches*upTo/4 && !t.Failed() {
		time.Sleep(5 * time.Millisecond)
	}
	if err := procs[0].cmd.Process.Kill(); err != nil { // SIGKILL: no shutdown, no flush
		t.Fatal(err)
	}
	dead.Store(true)
	wg.Wait()
	if t.Failed() {
		return
	}
	survivor := procs[1].base
	for i, id := range ids {
		var stored api.EventsResponse
		getJSON(t, survivor+"/api/v1/matches/"+id+"/events?limit=1000", &stored)
		// Every stored event after the opening ones was acknowledged exactly once.
		if len(stored.Events) != opening[i]+len(logs[i]) {
			t.Fatalf("match %s: %d events stored, %d opening and %d acknowledged", id, len(stored.Events), opening[i], len(logs[i]))
		}
		for _, e := range logs[i] {
			if e.Seq > len(stored.Events) || stored.Events[e.Seq-1].Type != e.Type {
				t.Fatalf("match %s: acknowledged seq %d (%s) is not in the log of %d events", id, e.Seq, e.Type, len(stored.Events))
			}
		}
		var rep api.AuditReport
		getJSON(t, survivor+"/api/v1/matches/"+id+"/audit", &rep)
		if !rep.OK || rep.Events != len(stored.Events) {
			t.Fatalf("match %s audits %+v over %d events", id, rep, len(stored.Events))
		}
	}
	t.Logf("%d moves acknowledged; instance A killed after %d; all stored once, all audited clean", acked.Load(), matches*upTo/4)
}

// playThrough creates a match of two humans and plays both seats until version upTo or the
// end, each move through the next live process in turn with an Idempotency-Key; a move that
// got no answer is sent again, same key, to the survivor. It returns the match id, the
// match's version when created and the events of every acknowledged move.
func playThrough(t *testing.T, procs []*process, dead *atomic.Bool, acked *atomic.Int64, n, upTo int) (string, int, []api.Event) {
	pick := func(step int) string {
		if dead.Load() {
			return procs[1].base
		}
		return procs[step%2].base
	}
	var created api.CreateMatchResponse
	if err := post(pick(n), "/api/v1/matches", "", `{"players":[{"name":"ann","kind":"human"},{"name":"bob","kind":"human"}]}`, "", &created); err != nil {
		t.Errorf("create: %v", err)
		return "", 0, nil
	}
	id, tokens := created.Match.ID, map[int]string{}
	for _, tk := range created.Tokens {
		tokens[tk.Seat] = tk.Token
	}
	var acks []api.Event
	view := created.Match
	for step := 0; view.Status != "finished" && view.Version < upTo; step++ {
		seat := view.Hand.Turn
		base := pick(step + n)
		var lm api.LegalMovesResponse
		// Read until the answer is as new as the last move's: the other process may not have
		// heard of it yet, and the killed one answers nothing (the survivor then does).
		for tries := 0; lm.Version < view.Version; tries++ {
			if tries > 1000 {
				t.Errorf("no legal moves at version %d or later", view.Version)
				return id, created.Match.Version, acks
			}
			if getWith(base+"/api/v1/matches/"+id+"/legal-moves", tokens[seat], &lm) != nil {
				base = procs[1].base
			}
			if lm.Version < view.Version {
				time.Sleep(time.Millisecond)
			}
		}
		l := lm.LegalMoves[0]
		body := `{"action":"` + l.Action + `"}`
		if l.Action == "play" {
			body = `{"action":"play","tile":"` + l.Tile + `","end":"` + l.End + `"}`
		}
		key := fmt.Sprintf("m%d-v%d", n, lm.Version)
		var res api.MoveResponse
		err := post(pick(step+n+1), "/api/v1/matches/"+id+"/moves", tokens[seat], body, key, &res)
		for tries := 0; err != nil && tries < 50; tries++ {
			time.Sleep(10 * time.Millisecond) // until the test marks the killed process dead
			err = post(pick(step+n+1), "/api/v1/matches/"+id+"/moves", tokens[seat], body, key, &res)
		}
		if err != nil {
			t.Errorf("move at version %d: %v", lm.Version, err)
			return id, created.Match.Version, acks
		}
		acks = append(acks, res.Events...)
		acked.Add(1)
		view = res.Match
	}
	return id, created.Match.Version, acks
}

var httpClient = &http.Client{Timeout: time.Minute}

// post sends a JSON body with an optional seat token and Idempotency-Key and decodes a 200 or
// 201 answer into out; a refusal or a failed connection is an error.
func post(base, path, token, body, key string, out any) error {
	req, err := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	return do(req, out)
}

func getWith(url, token string, out any) error {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(req, out)
}

func getJSON(t *testing.T, url string, out any) {
	t.Helper()
	if err := getWith(url, "", out); err != nil {
		t.Fatal(err)
	}
}

func do(req *http.Request, out any) error {
	res, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusCreated {
		return fmt.Errorf("%s %s: %d %s", req.Method, req.URL.Path, res.StatusCode, bytes.TrimSpace(body))
	}
	return json.Unmarshal(body, out)
}
