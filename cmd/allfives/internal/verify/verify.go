// Package verify is `allfives verify`: the offline check of a match's JSON export (GET
// /api/v1/matches/{id}/export) with no server and no database (docs/api-records.md, "Verifying an
// export"). Run is the whole command, its flags, checks and printing; Export checks an
// export's bytes and returns every check's result; Log reads an export's log as its chain
// commits to it, for the commands that read exports (review).
package verify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
)

// Usage is the command's help.
const Usage = `usage: allfives verify FILE|-

Checks the JSON export of a finished match (GET /api/v1/matches/{id}/export) with no server
and no database: the hash chain over every event's raw_data, each event's data against its
raw_data, every event against the rules, the revealed seed against the commitment and every
deal against the seed, and every field of the match the events determine against them (a field
they do not, such as the review's state, is not compared; the first that differs is named). It
prints each check, names the first bad seq when one fails, and exits 0 only when every check
holds. "-" reads standard input. The chain formula is in docs/api-records.md, "Verifying an export".
`

// ErrNotVerified is returned when the export was read but does not hold up; the checks printed
// say why.
var ErrNotVerified = errors.New("verify: the export does not hold up")

// Run is `allfives verify FILE|-`, its output written to stdout: nil only when every check
// holds (and for -h).
func Run(_ context.Context, args []string, stdout io.Writer) error {
	files, help, err := Args("allfives verify", Usage, args, stdout)
	if help || err != nil {
		return err
	}
	if len(files) != 1 {
		return fmt.Errorf("verify: give one export file, or - for standard input; run allfives verify -h")
	}
	body, err := ReadExport(files[0])
	if err != nil {
		return err
	}
	res := Export(body)
	for _, c := range res.Checks {
		if err := PrintCheck(stdout, c.OK, c.Name, c.Detail); err != nil {
			return err
		}
	}
	if bad, ok := res.FirstBad(); ok {
		fmt.Fprintf(stdout, "first bad seq: %d\n", bad)
		return fmt.Errorf("%w: first bad seq %d", ErrNotVerified, bad)
	}
	if !res.OK() {
		fmt.Fprintln(stdout, "the export does not hold up")
		return ErrNotVerified
	}
	_, err = fmt.Fprintf(stdout, "verified: match %s, %d events, head hash %s\n", res.ID, res.Events, res.Head)
	return err
}

// MaxExport bounds what verify reads: the longest match's export is far below it, and a
// larger input is a mistake to refuse, not to load.
const MaxExport = 64 << 20

// ReadExport reads the file named, or standard input for "-", refusing an empty file and one
// larger than MaxExport; its errors begin "verify: ".
func ReadExport(name string) ([]byte, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("verify: %w", err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, MaxExport+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("verify: read %s: %w", name, err)
	case len(b) > MaxExport:
		return nil, fmt.Errorf("verify: %s is larger than %d bytes; no export is", name, MaxExport)
	case len(strings.TrimSpace(string(b))) == 0:
		return nil, fmt.Errorf("verify: %s is empty", name)
	}
	return b, nil
}

// ErrNotAnExport is Log's answer to bytes that are not a JSON export of a match.
var ErrNotAnExport = errors.New("not a JSON export of a match: it needs a match with an id and its events")

// Log reads an export's match and its log as the chain commits to it (raw_data), for a
// command that reads a match from its export (allfives review). It runs verify's checks of
// the links, the chain and the payloads only; when one fails, events is nil and res holds
// the failed checks. Bytes that are no export are ErrNotAnExport.
func Log(body []byte) (view api.MatchView, events []domain.Event, res Result, err error) {
	var f exportFile
	if err := json.Unmarshal(body, &f); err != nil || json.Unmarshal(f.Match, &view) != nil || view.ID == "" || len(f.Events) == 0 {
		return view, nil, res, ErrNotAnExport
	}
	res.ID, res.Events = view.ID, len(f.Events)
	links, ok := chainLinks(&res, f.Events)
	if !ok {
		return view, nil, res, nil
	}
	if chain := audit.VerifyLinks(links); !chain.OK {
		res.add(audit.CheckHashChain, false, chain.FirstBadSeq, "seq %d: %s", chain.FirstBadSeq, chain.Detail)
	}
	log := payloads(&res, f.Events, links)
	if !res.OK() || log.Unreadable > 0 {
		return view, nil, res, nil
	}
	return view, log.Events, res, nil
}
