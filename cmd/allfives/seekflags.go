package main

import (
	"fmt"
	"time"

	"github.com/allfives/allfives/cmd/allfives/internal/server"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/seeks"
	"github.com/allfives/allfives/domain/matchmaking"
)

// seekFlags declares the matchmaking flags on f; the func it returns reads them once f is
// parsed.
func seekFlags(f *envFlags) func() (server.Seeks, error) {
	d := server.DefaultSeeks().Rule
	window := f.float("seek-window", "ALLFIVES_SEEK_WINDOW", d.Window, "the rating gap a new seek accepts (docs/matchmaking.md)")
	growth := f.float("seek-window-growth", "ALLFIVES_SEEK_WINDOW_GROWTH", d.Growth, "how much a seek's rating window widens per second of waiting")
	most := f.float("seek-window-max", "ALLFIVES_SEEK_WINDOW_MAX", d.MaxWindow, "the widest a seek's rating window grows; 0: no cap")
	botAfter := f.string("seek-bot-after", "ALLFIVES_SEEK_BOT_AFTER", "15s", "how long a seek waits for humans before the bots nearest its rating fill its table; 0: never")
	ttl := f.string("seek-ttl", "ALLFIVES_SEEK_TTL", "10m", "how long a seek searches before it expires")
	every := f.string("seek-interval", "ALLFIVES_SEEK_INTERVAL", "100ms", "how often the matcher looks at the pool (a seek made on this instance wakes it at once)")
	turn := f.int("seek-turn-seconds", "ALLFIVES_SEEK_TURN_SECONDS", seeks.DefaultTurnSeconds, "the clock, in seconds per turn, of a seek made without turn_seconds (10 to 604800)")
	return func() (c server.Seeks, err error) {
		c.Rule = matchmaking.Rule{Window: *window, Growth: *growth, MaxWindow: *most}
		if c.Rule.Window < 0 || c.Rule.Growth < 0 || c.Rule.MaxWindow < 0 {
			return c, fmt.Errorf("seek-window, seek-window-growth and seek-window-max must be 0 or more")
		}
		if c.Rule.BotAfter, err = time.ParseDuration(*botAfter); err != nil || c.Rule.BotAfter < 0 {
			return c, fmt.Errorf("seek-bot-after must be a duration such as 15s, or 0, not %q", *botAfter)
		}
		if c.TTL, err = time.ParseDuration(*ttl); err != nil || c.TTL < time.Second {
			return c, fmt.Errorf("seek-ttl must be a duration of 1s or more, not %q", *ttl)
		}
		if c.Every, err = time.ParseDuration(*every); err != nil || c.Every < 10*time.Millisecond {
			return c, fmt.Errorf("seek-interval must be a duration of 10ms or more, not %q", *every)
		}
		if *turn < domain.MinTurnSeconds || *turn > domain.MaxTurnSeconds {
			return c, fmt.Errorf("seek-turn-seconds must be %d to %d, not %d", domain.MinTurnSeconds, domain.MaxTurnSeconds, *turn)
		}
		c.TurnSeconds = *turn
		return c, nil
	}
}
