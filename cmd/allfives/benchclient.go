package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// benchClient speaks the public API (docs/api.md) to a running server, as any client would:
// the load tool and the crash test drive the server through it.
type benchClient struct {
	base string // e.g. http://127.0.0.1:8080
	http *http.Client
}

// newBenchClient talks to the server at base, a URL as serverURL gives it (a bare host:port
// is taken as http, for the tests that start a server on one).
func newBenchClient(base string, conns int) *benchClient {
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		base = "http://" + base
	}
	tr := &http.Transport{MaxIdleConns: conns * 2, MaxIdleConnsPerHost: conns * 2, IdleConnTimeout: time.Minute}
	return &benchClient{base: strings.TrimRight(base, "/"), http: &http.Client{Transport: tr, Timeout: time.Minute}}
}

// benchMatch is a match the client plays: its id and the human seat's token.
type benchMatch struct {
	ID    string
	Token string
}

// benchView is what the client reads of a match view or a move answer.
type benchView struct {
	Version    int              `json:"version"`
	Status     string           `json:"status"`
	LegalMoves []benchLegalMove `json:"legal_moves"`
}

type benchLegalMove struct {
	Action string `json:"action"`
	Tile   string `json:"tile,omitempty"`
	End    string `json:"end,omitempty"`
}

// statusError is an answer with an unexpected status.
type statusError struct {
	Status int
	Body   string
}

func (e *statusError) Error() string { return fmt.Sprintf("status %d: %s", e.Status, e.Body) }

// do sends a request and decodes a 2xx JSON answer into out (nil: discard it).
func (c *benchClient) do(ctx context.Context, method, path, token string, hdr map[string]string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		return &statusError{Status: res.StatusCode, Body: string(b)}
	}
	if out == nil {
		_, err = io.Copy(io.Discard, res.Body)
		return err
	}
	return json.NewDecoder(res.Body).Decode(out)
}

// create starts a match of one human seat against one bot playing strategy bot.
func (c *benchClient) create(ctx context.Context, bot string, target int) (benchMatch, error) {
	req := map[string]any{
		"players": []map[string]string{{"name": "bench", "kind": "human"}, {"name": "bot", "kind": "bot", "bot": bot}},
		"target":  target,
	}
	var res struct {
		Match  struct{ ID string } `json:"match"`
		Tokens []struct {
			Token string `json:"token"`
		} `json:"tokens"`
	}
	if err := c.do(ctx, http.MethodPost, "/api/v1/matches", "", nil, req, &res); err != nil {
		return benchMatch{}, fmt.Errorf("create: %w", err)
	}
	if len(res.Tokens) != 1 {
		return benchMatch{}, fmt.Errorf("create: %d tokens, want 1", len(res.Tokens))
	}
	return benchMatch{ID: res.Match.ID, Token: res.Tokens[0].Token}, nil
}

// state reads the match as its human seat.
func (c *benchClient) state(ctx context.Context, m benchMatch) (benchView, error) {
	var v benchView
	err := c.do(ctx, http.MethodGet, "/api/v1/matches/"+m.ID, m.Token, nil, nil, &v)
	return v, err
}

// move posts lm for the human seat; key, when set, is sent as Idempotency-Key.
func (c *benchClient) move(ctx context.Context, m benchMatch, lm benchLegalMove, key string) (benchView, error) {
	var hdr map[string]string
	if key != "" {
		hdr = map[string]string{"Idempotency-Key": key}
	}
	var res struct {
		Match benchView `json:"match"`
	}
	err := c.do(ctx, http.MethodPost, "/api/v1/matches/"+m.ID+"/moves", m.Token, hdr, lm, &res)
	return res.Match, err
}

// audited reports whether the server's audit of the match holds.
func (c *benchClient) audited(ctx context.Context, id string) (bool, error) {
	var res struct {
		OK bool `json:"ok"`
	}
	err := c.do(ctx, http.MethodGet, "/api/v1/matches/"+id+"/audit", "", nil, nil, &res)
	return res.OK, err
}

// key names a move for Idempotency-Key: unique per client, match and version.
func key(client int, m benchMatch, version int) string {
	return "bench-" + strconv.Itoa(client) + "-" + m.ID + "-" + strconv.Itoa(version)
}
