package connect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// problem is an answer of 4xx or 5xx: its status and the API's problem+json.
type problem struct {
	Status         int    `json:"status"`
	Code           string `json:"code"`
	Detail         string `json:"detail"`
	CurrentVersion *int   `json:"current_version"`
	retryAfter     time.Duration
}

func (p *problem) Error() string {
	if p.Code == "" {
		return fmt.Sprintf("HTTP %d", p.Status)
	}
	return fmt.Sprintf("%d %s: %s", p.Status, p.Code, p.Detail)
}

// transient says a request may be tried again as it was: the server was away, busy or
// limiting, not refusing it.
func transient(err error) bool {
	var p *problem
	if errors.As(err, &p) {
		return p.Status >= 500 || p.Status == http.StatusTooManyRequests || p.Status == http.StatusRequestTimeout
	}
	return err != nil && !errors.Is(err, context.Canceled)
}

func codeOf(err error) string {
	var p *problem
	if errors.As(err, &p) {
		return p.Code
	}
	return ""
}

// client speaks the API with the player's key.
type client struct {
	base string // the server's URL with /api/v1
	key  string
	http *http.Client
}

func newClient(server, key string) *client {
	return &client{
		base: strings.TrimRight(server, "/") + "/api/v1",
		key:  key,
		http: &http.Client{Timeout: 30 * time.Second},
	}
}

// do sends one request and decodes a 2xx answer's body into out (unless nil).
func (c *client) do(ctx context.Context, method, path string, body any, header http.Header, out any) error {
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
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode >= 400 {
		p := &problem{Status: resp.StatusCode}
		json.Unmarshal(b, p)
		p.Status = resp.StatusCode
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			p.retryAfter = time.Duration(s) * time.Second
		}
		return p
	}
	if out == nil || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	if raw, ok := out.(*json.RawMessage); ok {
		*raw = b
		return nil
	}
	return json.Unmarshal(b, out)
}

// me is GET /players/me.
type me struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Program bool   `json:"program"`
}

// view is the part of GET /matches/{id} the connector decides from; raw is the whole answer,
// handed to the engine as it is.
type view struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Version int    `json:"version"`
	Seats   []struct {
		Seat     int        `json:"seat"`
		Deadline *time.Time `json:"deadline"`
	} `json:"seats"`
	You *struct {
		Seat int `json:"seat"`
	} `json:"you"`
	Turn       *int            `json:"turn"`
	LegalMoves json.RawMessage `json:"legal_moves"`
	raw        json.RawMessage
}

// over says the match will have no more moves.
func (v *view) over() bool {
	return v.Status == "finished" || v.Status == "expired" || v.Status == "cancelled"
}

func (c *client) view(ctx context.Context, id string) (*view, error) {
	var raw json.RawMessage
	if err := c.do(ctx, http.MethodGet, "/matches/"+url.PathEscape(id), nil, nil, &raw); err != nil {
		return nil, err
	}
	v := &view{}
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, err
	}
	v.raw = raw
	return v, nil
}

// events is GET /matches/{id}/events after seq after: each event's JSON as the seat reads it.
func (c *client) events(ctx context.Context, id string, after int) ([]json.RawMessage, int, error) {
	var page struct {
		Events  []json.RawMessage `json:"events"`
		Version int               `json:"version"`
	}
	path := fmt.Sprintf("/matches/%s/events?after=%d&limit=1000", url.PathEscape(id), after)
	if err := c.do(ctx, http.MethodGet, path, nil, nil, &page); err != nil {
		return nil, 0, err
	}
	return page.Events, page.Version, nil
}

// liveItem is an item of GET /players/{id}/matches.
type liveItem struct {
	ID     string `json:"id"`
	Seat   int    `json:"seat"`
	Status string `json:"status"`
}

// live lists the player's matches in progress (every page).
func (c *client) live(ctx context.Context, player string) ([]liveItem, error) {
	var all []liveItem
	cursor := ""
	for {
		var page struct {
			Matches    []liveItem `json:"matches"`
			NextCursor string     `json:"next_cursor"`
		}
		q := url.Values{"status": {"in_progress"}, "limit": {"100"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		if err := c.do(ctx, http.MethodGet, "/players/"+url.PathEscape(player)+"/matches?"+q.Encode(), nil, nil, &page); err != nil {
			return nil, err
		}
		all = append(all, page.Matches...)
		if page.NextCursor == "" {
			return all, nil
		}
		cursor = page.NextCursor
	}
}
