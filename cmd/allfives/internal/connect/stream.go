package connect

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// streamIdle is how long the player's stream may stay silent before the connector takes it
// for lost: the server pings every 15 seconds.
const streamIdle = 45 * time.Second

// note is one event of the player's stream: its name and its data.
type note struct {
	Name string
	Data struct {
		Match string `json:"match"`
		Seat  int    `json:"seat"`
		Turns []struct {
			ID   string `json:"id"`
			Seat int    `json:"seat"`
		} `json:"turns"`
		Challenges []struct {
			ID   string `json:"id"`
			Seat int    `json:"seat"`
		} `json:"challenges"`
	}
}

// follow opens the player's stream with a ticket and hands its events to notes until the
// stream ends, goes silent, or ctx is done.
func (c *client) follow(ctx context.Context, notes chan<- note) error {
	var t struct {
		Ticket string `json:"ticket"`
	}
	if err := c.do(ctx, http.MethodPost, "/players/me/tickets", nil, nil, &t); err != nil {
		return fmt.Errorf("a ticket for the player's stream: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/players/me/stream?ticket="+url.QueryEscape(t.Ticket), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := (&http.Client{}).Do(req) // no timeout: the stream lasts; the watchdog below ends a silent one
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &problem{Status: resp.StatusCode}
	}
	watchdog := time.AfterFunc(streamIdle, cancel)
	defer watchdog.Stop()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var name, data string
	for sc.Scan() {
		watchdog.Reset(streamIdle)
		line := sc.Text()
		switch {
		case line == "":
			if name != "" && data != "" {
				n := note{Name: name}
				if err := json.Unmarshal([]byte(data), &n.Data); err == nil {
					select {
					case notes <- n:
					case <-ctx.Done():
						return ctx.Err()
					}
				}
			}
			name, data = "", ""
		case strings.HasPrefix(line, "event:"):
			name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data += strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return fmt.Errorf("the player's stream ended")
}
