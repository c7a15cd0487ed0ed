// Command allfivesload is the allfives side of the peer comparison (../run.sh): MATCHES
// clients, each playing its own match against a random bot as `allfives bench` does, a move
// being a GET of the seat's state and a POST of its first legal move. It prints the moves per
// second as one JSON line. A plain Go HTTP client, as a program playing allfives would be:
// the Node client it replaces spent more CPU than the server it measured.
//
//	go run ./.ci/bench/boardgameio/allfivesload ADDR MATCHES SECONDS
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type legalMove struct {
	Action string `json:"action"`
	Tile   string `json:"tile,omitempty"`
	End    string `json:"end,omitempty"`
}

type view struct {
	Status     string      `json:"status"`
	LegalMoves []legalMove `json:"legal_moves"`
}

type client struct {
	base string
	http *http.Client
}

func (c *client) call(method, path, token string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, text)
	}
	return json.Unmarshal(text, out)
}

type match struct{ id, token string }

func (c *client) create() (match, error) {
	var res struct {
		Match  struct{ ID string } `json:"match"`
		Tokens []struct{ Token string }
	}
	err := c.call("POST", "/matches", "", map[string]any{
		"players": []map[string]string{{"name": "bench", "kind": "human"}, {"name": "bot", "kind": "bot", "bot": "random"}},
		"target":  1000,
	}, &res)
	if err == nil && len(res.Tokens) == 0 {
		err = fmt.Errorf("create: no token")
	}
	if err != nil {
		return match{}, err
	}
	return match{res.Match.ID, res.Tokens[0].Token}, nil
}

// play moves in its own matches until the deadline and counts the moves the server took.
func (c *client) play(deadline time.Time, moves *atomic.Int64) error {
	m, err := c.create()
	for err == nil && time.Now().Before(deadline) {
		var v view
		if err = c.call("GET", "/matches/"+m.id, m.token, nil, &v); err != nil {
			break
		}
		if v.Status != "in_progress" || len(v.LegalMoves) == 0 {
			m, err = c.create()
			continue
		}
		if err = c.call("POST", "/matches/"+m.id+"/moves", m.token, v.LegalMoves[0], &v); err == nil {
			moves.Add(1)
		}
	}
	return err
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: allfivesload ADDR MATCHES SECONDS")
		os.Exit(2)
	}
	matches, _ := strconv.Atoi(os.Args[2])
	seconds, _ := strconv.ParseFloat(os.Args[3], 64)
	tr := &http.Transport{MaxIdleConns: 2 * matches, MaxIdleConnsPerHost: 2 * matches}
	c := &client{base: "http://" + os.Args[1] + "/api/v1", http: &http.Client{Transport: tr, Timeout: time.Minute}}
	var moves atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, matches)
	start := time.Now()
	deadline := start.Add(time.Duration(seconds * float64(time.Second)))
	for range matches {
		wg.Go(func() { errs <- c.play(deadline, &moves) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	elapsed := time.Since(start).Seconds()
	out, _ := json.Marshal(map[string]any{"server": "allfives", "matches": matches, "seconds": elapsed,
		"moves": moves.Load(), "moves_per_s": float64(moves.Load()) / elapsed, "client_cpu_s": cpuSeconds()})
	fmt.Println(string(out))
}

// cpuSeconds is the user and system CPU this process has used: on a machine the clients share
// with the servers, what a client spends is CPU the server it loads does not get.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()).Seconds()
}
