package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/allfives/allfives/cmd/allfives/internal/connect"
	"github.com/allfives/allfives/cmd/allfives/internal/engine"
	"github.com/allfives/allfives/cmd/allfives/internal/tourncheck"
	"github.com/allfives/allfives/cmd/allfives/internal/verify"
)

const usage = `usage: allfives [command] [flags]

commands:
  serve      serve the HTTP API (the default)
  migrate    apply the database migrations and exit
  check      check a database: SQLite's integrity check and the audit of every match
  simulate   play matches between bots in-process and report on the strategies
  replay     print a stored match's record as text
  verify     check a match's JSON export offline: chain, rules, seed, deals and the match's fields
  bench      load a running server over HTTP and print rates, latencies and ratios
  review     review a finished match's JSON export offline: accuracy, luck and skill
  ratings    rebuild every rating from the match logs, or check the live table against them
  tournament  recompute a tournament's standings offline from its and its matches' exports
  engine     the reference engine: a bot behind the engine protocol on stdin and stdout
  connect    play a player's matches on a server through an engine (docs/engine.md)
  help       show this text

Run allfives <command> -h for a command's flags. A flag whose help names a variable
($ALLFIVES_ADDR, $ALLFIVES_DB, ...) can also be set in the environment; the flag wins.
`

// helpFlags ask for the program's help when they come first.
var helpFlags = []string{"-h", "-help", "--help"}

// run is the whole program: main only wires it to the process, so tests can call it with
// their own arguments, environment and output.
func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	// Flags without a command are serve's, but -h first asks for the program's help.
	cmd, rest := "serve", args
	switch {
	case len(args) == 0:
	case slices.Contains(helpFlags, args[0]):
		cmd, rest = "help", args[1:]
	case !strings.HasPrefix(args[0], "-"):
		cmd, rest = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return runServe(ctx, rest, getenv, stdout)
	case "migrate":
		return runMigrate(ctx, rest, getenv, stdout)
	case "check":
		return runCheck(ctx, rest, getenv, stdout)
	case "simulate":
		return runSimulate(ctx, rest, getenv, stdout)
	case "replay":
		return runReplay(ctx, rest, getenv, stdout)
	case "verify":
		return verify.Run(ctx, rest, stdout)
	case "review":
		return runReview(ctx, rest, stdout)
	case "bench":
		return runBench(ctx, rest, getenv, stdout)
	case "ratings":
		return runRatings(ctx, rest, getenv, stdout)
	case "tournament":
		return tourncheck.Run(ctx, rest, stdout)
	case "connect":
		return connect.Command(ctx, rest, getenv, os.Stderr)
	case "engine":
		return engine.Command(ctx, rest, os.Stdin, stdout, os.Stderr)
	case "help":
		_, err := io.WriteString(stdout, usage)
		return err
	}
	return fmt.Errorf("unknown command %q; run allfives help", cmd)
}

// envFlags is a flag set whose defaults come from the environment: the flag wins, then the
// variable, then the built-in default. A variable holding a bad value is an error that names
// it, not a silent fallback.
type envFlags struct {
	fs     *flag.FlagSet
	getenv func(string) string
	errs   []error
}

func newEnvFlags(name string, getenv func(string) string, out io.Writer) *envFlags {
	fs := flag.NewFlagSet("allfives "+name, flag.ContinueOnError)
	fs.SetOutput(out)
	return &envFlags{fs: fs, getenv: getenv}
}

func (f *envFlags) string(name, env, def, help string) *string {
	if v := f.getenv(env); v != "" {
		def = v
	}
	return f.fs.String(name, def, help+" ($"+env+")")
}

func (f *envFlags) float(name, env string, def float64, help string) *float64 {
	if v := f.getenv(env); v != "" {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			f.errs = append(f.errs, fmt.Errorf("$%s: %q is not a number", env, v))
		}
		def = n
	}
	return f.fs.Float64(name, def, help+" ($"+env+")")
}

func (f *envFlags) int(name, env string, def int, help string) *int {
	if v := f.getenv(env); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			f.errs = append(f.errs, fmt.Errorf("$%s: %q is not a whole number", env, v))
		}
		def = n
	}
	return f.fs.Int(name, def, help+" ($"+env+")")
}

// parse reads args; flag.ErrHelp (after -h printed the flags) is passed on for the caller.
func (f *envFlags) parse(args []string) error {
	if err := errors.Join(f.errs...); err != nil {
		return err
	}
	if err := f.fs.Parse(args); err != nil {
		return err
	}
	if f.fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q", f.fs.Name(), f.fs.Arg(0))
	}
	return nil
}

// newLogger writes JSON lines at level to out.
func newLogger(out io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level must be debug, info, warn or error, not %q", level)
	}
	return slog.New(slog.NewJSONHandler(out, &slog.HandlerOptions{Level: l})), nil
}

// count is n and the noun for it, in the singular for 1: "1 match", "3 matches".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// helpOK turns the -h "error" into a clean exit.
func helpOK(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}
