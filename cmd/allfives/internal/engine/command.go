package engine

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/allfives/allfives/domain/bot"
)

// Command is `allfives engine`: the reference engine on stdin and stdout.
func Command(ctx context.Context, args []string, in io.Reader, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("allfives engine", flag.ContinueOnError)
	fs.SetOutput(errOut)
	name := fs.String("bot", bot.NameGreedy, "the strategy to play: "+strings.Join(bot.WeakestFirst(), ", "))
	seed := fs.Uint64("seed", 1, "the strategies' seed; the server's bots play alike under the same seed (serve --bot-seed)")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "usage: allfives engine --bot <strategy> [--seed N]\n\n"+
			"The reference engine: the project's bots behind the engine protocol (docs/engine.md),\n"+
			"on stdin and stdout, for allfives connect --engine \"allfives engine --bot greedy\".")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("allfives engine: unexpected argument %q", fs.Arg(0))
	}
	strategies := bot.Strategies(*seed)
	s, ok := strategies[*name]
	if !ok {
		return fmt.Errorf("allfives engine: no strategy %q; one of %s", *name, strings.Join(bot.WeakestFirst(), ", "))
	}
	b := &Bot{Name: "allfives-" + *name, Strategy: s}
	return b.Run(ctx, in, out)
}
