package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/repository/sqlite"
)

const replayUsage = `usage: allfives replay <match id> [flags]

Prints a match's record in the text notation of docs/notation.md, or with --step N the table
as it was right after event N. It reads the database (--db) or asks a running server
(--server). Without a token it shows what a spectator may see: while the match is live no
hand; once it has ended, everything.

flags:
`

// replayTimeout bounds one request to a server.
const replayTimeout = 30 * time.Second

// replayConfig is what replay runs with.
type replayConfig struct {
	id, db, server, token string
	step                  int
}

func parseReplay(args []string, getenv func(string) string, out io.Writer) (replayConfig, error) {
	var c replayConfig
	f := newEnvFlags("replay", getenv, out)
	db := f.string("db", "ALLFIVES_DB", sqlite.DefaultPath, "the database to read: "+dbHelp)
	token := f.string("token", "ALLFIVES_TOKEN", "", "a seat token: show that seat's tiles while the match is live")
	server := f.fs.String("server", "", "ask "+serverHelp+", instead of the database")
	step := f.fs.Int("step", 0, "print the table as it was right after event N (1 to the match's version) instead of the record")
	f.fs.Usage = func() {
		fmt.Fprint(f.fs.Output(), replayUsage)
		f.fs.PrintDefaults()
	}
	if err := errors.Join(f.errs...); err != nil {
		return c, err
	}
	// The id may come before or after the flags: flag stops at the first argument that is
	// not a flag, so parse what follows it again.
	var ids []string
	for {
		if err := f.fs.Parse(args); err != nil {
			return c, err
		}
		if f.fs.NArg() == 0 {
			break
		}
		ids, args = append(ids, f.fs.Arg(0)), f.fs.Args()[1:]
	}
	if len(ids) != 1 || ids[0] == "" {
		return c, fmt.Errorf("replay needs one match id, got %d arguments; run allfives replay -h", len(ids))
	}
	set := map[string]bool{}
	f.fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if set["db"] && set["server"] {
		return c, errors.New("replay: give --db or --server, not both")
	}
	if *step < 0 {
		return c, fmt.Errorf("replay: --step must be 1 or more, not %d", *step)
	}
	c = replayConfig{id: ids[0], db: *db, token: *token, step: *step}
	if set["server"] {
		var err error
		if c.server, err = serverURL(*server); err != nil {
			return c, fmt.Errorf("replay: --server: %w", err)
		}
	}
	return c, nil
}

// runReplay prints a stored match's record, or its table at one step.
func runReplay(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	c, err := parseReplay(args, getenv, stdout)
	if err != nil {
		return helpOK(err)
	}
	var src replaySource = &dbSource{path: c.db}
	if c.server != "" {
		src = &serverSource{base: c.server, client: &http.Client{Timeout: replayTimeout}}
	}
	if c.step == 0 {
		text, err := src.record(ctx, c.id, c.token)
		if err != nil {
			return err
		}
		_, err = stdout.Write(text)
		return err
	}
	event, view, err := src.replay(ctx, c.id, c.token, c.step)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, renderStep(c.step, event, view))
	return err
}

// replaySource is where a match's record comes from: the database or a server.
type replaySource interface {
	// record is the text notation of the whole record as the token's holder may see it.
	record(ctx context.Context, id, token string) ([]byte, error)
	// replay is event step and the match right after it.
	replay(ctx context.Context, id, token string, step int) (api.Event, api.MatchView, error)
}
