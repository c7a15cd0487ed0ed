package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

const verifyUsage = `usage: allfives verify FILE|-

Checks the JSON export of a finished match (GET /api/v1/matches/{id}/export) with no server
and no database: the hash chain over every event's raw_data, each event's data against its
raw_data, every event against the rules, the revealed seed against the commitment and every
deal against the seed, and the match against the events. It prints each check, names the first
bad seq when one fails, and exits 0 only when every check holds. "-" reads standard input.
The chain formula is in docs/api.md, "Verifying an export".
`

// errNotVerified is returned when the export was read but does not hold up; the checks printed
// say why.
var errNotVerified = errors.New("verify: the export does not hold up")

// runVerify is `allfives verify FILE|-`.
func runVerify(_ context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("allfives verify", flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() { io.WriteString(stdout, verifyUsage) }
	if err := fs.Parse(args); err != nil {
		return helpOK(err)
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("verify: give one export file, or - for standard input; run allfives verify -h")
	}
	body, err := readExport(fs.Arg(0))
	if err != nil {
		return err
	}
	res := verifyExport(body)
	for _, c := range res.checks {
		mark := "ok  "
		if !c.ok {
			mark = "FAIL"
		}
		if _, err := fmt.Fprintf(stdout, "%s %-10s %s\n", mark, c.name, c.detail); err != nil {
			return err
		}
	}
	if bad, ok := res.firstBad(); ok {
		fmt.Fprintf(stdout, "first bad seq: %d\n", bad)
		return fmt.Errorf("%w: first bad seq %d", errNotVerified, bad)
	}
	if !res.ok() {
		fmt.Fprintln(stdout, "the export does not hold up")
		return errNotVerified
	}
	_, err = fmt.Fprintf(stdout, "verified: match %s, %d events, head hash %s\n", res.id, res.events, res.head)
	return err
}

// maxExport bounds what verify reads: the longest match's export is far below it, and a
// larger input is a mistake to refuse, not to load.
const maxExport = 64 << 20

// readExport reads the file named, or standard input for "-".
func readExport(name string) ([]byte, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("verify: %w", err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxExport+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("verify: read %s: %w", name, err)
	case len(b) > maxExport:
		return nil, fmt.Errorf("verify: %s is larger than %d bytes; no export is", name, maxExport)
	case len(strings.TrimSpace(string(b))) == 0:
		return nil, fmt.Errorf("verify: %s is empty", name)
	}
	return b, nil
}
