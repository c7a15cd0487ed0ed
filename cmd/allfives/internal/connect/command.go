package connect

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// Command is `allfives connect`: its flags, then Run, logging to logOut.
func Command(ctx context.Context, args []string, getenv func(string) string, logOut io.Writer) error {
	fs := flag.NewFlagSet("allfives connect", flag.ContinueOnError)
	fs.SetOutput(logOut)
	var cfg Config
	fs.StringVar(&cfg.Server, "server", "http://localhost:8080", "the server's URL")
	fs.StringVar(&cfg.Key, "key", getenv("ALLFIVES_KEY"), "the player's key, afk_... ($ALLFIVES_KEY)")
	fs.StringVar(&cfg.Engine, "engine", "", `the engine's command and arguments, split at spaces: "python3 my_engine.py"`)
	fs.StringVar(&cfg.Seek, "seek", "", "seek a match of this format (2p, 3p, 4p or 2v2), again after each match")
	fs.BoolVar(&cfg.Rated, "rated", false, "seek rated matches")
	fs.BoolVar(&cfg.AcceptChallenges, "accept-challenges", false, "take the seats other players reserve for this player")
	fs.StringVar(&cfg.Tournament, "tournament", "", "enter this tournament and play its matches")
	fs.IntVar(&cfg.Matches, "matches", 0, "stop after this many matches have ended (0: play until stopped)")
	level := fs.String("log-level", "info", "debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("allfives connect: unexpected argument %q", fs.Arg(0))
	case cfg.Key == "":
		return errors.New("allfives connect: --key (or $ALLFIVES_KEY) is required: the player's key")
	case strings.TrimSpace(cfg.Engine) == "":
		return errors.New(`allfives connect: --engine is required, e.g. --engine "allfives engine --bot greedy"`)
	case cfg.Matches < 0:
		return errors.New("allfives connect: --matches must be 0 or more")
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(*level)); err != nil {
		return fmt.Errorf("allfives connect: --log-level must be debug, info, warn or error, not %q", *level)
	}
	cfg.Log = slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: l}))
	return Run(ctx, cfg)
}
