// Package tourncheck is `allfives tournament`: a tournament recomputed offline from its JSON
// export and its matches' (docs/tournaments.md). Run is the whole command, its arguments,
// checks and printing; Recompute audits the exports' bytes and returns the report.
package tourncheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/allfives/allfives/cmd/allfives/internal/verify"
	"github.com/allfives/allfives/domain/tournament"
)

// Usage is the command's help.
const Usage = `usage: allfives tournament TOURNAMENT-EXPORT MATCH-EXPORT...

Recomputes a tournament offline, with no server and no database, from its JSON export
(GET /api/v1/tournaments/{id}/export) and the JSON exports of its matches
(GET /api/v1/matches/{id}/export), in any order: the tournament's hash chain and log, every
round's pairing re-derived from the rounds before it, each table's match against the pairing
(its seats, the round's committed seed in a duplicate round, its final score), each revealed
seed against its commitment, and the standings with their tie-breaks (docs/tournaments.md).
It prints each check and the standings, and exits 0 only when every check holds.
`

// ErrNotVerified: the exports were read but do not hold up.
var ErrNotVerified = errors.New("tournament: the exports do not hold up")

// tournamentFile is the part of a tournament's export the recomputation reads.
type tournamentFile struct {
	Tournament struct {
		ID   string `json:"id"`
		Spec struct {
			Format string `json:"format"`
		} `json:"spec"`
		Entries []struct {
			Player string `json:"player"`
			Name   string `json:"name"`
			Bot    string `json:"bot"`
		} `json:"entries"`
	} `json:"tournament"`
	Events []struct {
		Seq      int             `json:"seq"`
		Type     string          `json:"type"`
		At       time.Time       `json:"at"`
		Data     json.RawMessage `json:"data"`
		PrevHash string          `json:"prev_hash"`
		Hash     string          `json:"hash"`
	} `json:"events"`
}

// matchFile is the part of a match's export the recomputation reads.
type matchFile struct {
	Match struct {
		ID         string `json:"id"`
		Status     string `json:"status"`
		Commitment string `json:"commitment"`
		Scores     []int  `json:"scores"`
		Seats      []struct {
			Name   string `json:"name"`
			Kind   string `json:"kind"`
			Bot    string `json:"bot"`
			Player string `json:"player"`
		} `json:"seats"`
	} `json:"match"`
	Events []struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	} `json:"events"`
}

// Run is `allfives tournament FILE...`, its output written to stdout: nil only when every
// check holds (and for -h).
func Run(_ context.Context, args []string, stdout io.Writer) error {
	files, help, err := verify.Args("allfives tournament", Usage, args, stdout)
	if help || err != nil {
		return err
	}
	if len(files) < 1 {
		return fmt.Errorf("tournament: give the tournament's export and its matches' exports; run allfives tournament -h")
	}
	id, rep, err := recomputeFiles(files, verify.ReadExport)
	if err != nil {
		return err
	}
	return Print(stdout, id, rep)
}

// Recompute audits a tournament from its export's bytes and its matches' exports, in any
// order (docs/tournaments.md): the report's checks and standings, as Run prints them.
func Recompute(tournamentExport []byte, matchExports ...[]byte) (tournament.Report, error) {
	names := []string{"the tournament's export"}
	files := map[string][]byte{names[0]: tournamentExport}
	for i, b := range matchExports {
		name := fmt.Sprintf("match export %d", i+1)
		names = append(names, name)
		files[name] = b
	}
	_, rep, err := recomputeFiles(names, func(name string) ([]byte, error) { return files[name], nil })
	return rep, err
}

// recomputeFiles reads the named exports with read, one of them the tournament's, and
// audits it.
func recomputeFiles(names []string, read func(name string) ([]byte, error)) (string, tournament.Report, error) {
	var tf *tournamentFile
	var matches []matchFile
	for _, name := range names {
		body, err := read(name)
		if err != nil {
			return "", tournament.Report{}, err
		}
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(body, &probe); err != nil {
			return "", tournament.Report{}, fmt.Errorf("tournament: %s: %w", name, err)
		}
		if _, ok := probe["tournament"]; ok {
			if tf != nil {
				return "", tournament.Report{}, fmt.Errorf("tournament: %s is a second tournament export", name)
			}
			tf = &tournamentFile{}
			if err := json.Unmarshal(body, tf); err != nil {
				return "", tournament.Report{}, fmt.Errorf("tournament: %s: %w", name, err)
			}
			continue
		}
		var mf matchFile
		if err := json.Unmarshal(body, &mf); err != nil {
			return "", tournament.Report{}, fmt.Errorf("tournament: %s: %w", name, err)
		}
		matches = append(matches, mf)
	}
	if tf == nil {
		return "", tournament.Report{}, fmt.Errorf("tournament: no tournament export among the files")
	}
	return tf.Tournament.ID, recompute(tf, matches), nil
}

// recompute audits the tournament of tf against the matches' exports.
func recompute(tf *tournamentFile, matches []matchFile) tournament.Report {
	links := make([]tournament.Link, len(tf.Events))
	for i, e := range tf.Events {
		links[i] = tournament.Link{Event: tournament.Event{Seq: e.Seq, Type: tournament.EventType(e.Type), At: e.At, Data: e.Data}, PrevHash: e.PrevHash, Hash: e.Hash}
	}
	bots := map[string]string{}
	for _, e := range tf.Tournament.Entries {
		if e.Bot != "" {
			bots[e.Bot+"/"+e.Name] = e.Player
		}
	}
	format := tournament.Format(tf.Tournament.Spec.Format)
	facts := map[string]tournament.MatchFacts{}
	for _, m := range matches {
		f := tournament.MatchFacts{ID: m.Match.ID, Commitment: m.Match.Commitment, Finished: m.Match.Status == "finished"}
		for seat, s := range m.Match.Seats {
			who := s.Player
			if s.Kind == "bot" {
				who = bots[s.Bot+"/"+s.Name]
			}
			f.Players = append(f.Players, who)
			if side := format.SideOf(seat); f.Finished && side < len(m.Match.Scores) {
				f.Scores = append(f.Scores, m.Match.Scores[side])
			}
		}
		for _, e := range m.Events {
			if e.Type == "match.ended" {
				var me struct {
					Seed string `json:"seed"`
				}
				if json.Unmarshal(e.Data, &me) == nil {
					f.Seed = me.Seed
				}
			}
		}
		facts[f.ID] = f
	}
	return tournament.Audit(tf.Tournament.ID, links, facts)
}

// Print prints the checks and the standings of rep, the report of tournament id; the error
// is ErrNotVerified when a check failed.
func Print(w io.Writer, id string, rep tournament.Report) error {
	for _, c := range rep.Checks {
		if err := verify.PrintCheck(w, c.OK, c.Name, c.Detail); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "%4s  %-34s %10s %8s %10s %10s %4s %5s\n", "rank", "entrant", "points", "match", "buchholz", "s-b", "wins", "byes")
	for _, s := range rep.Standings {
		fmt.Fprintf(w, "%4d  %-34s %10g %8g %10g %10g %4d %5d\n", s.Rank, s.Entrant, s.Points, s.MatchPoints, s.Buchholz, s.SonnebornBerger, s.Wins, s.Byes)
	}
	if !rep.OK {
		fmt.Fprintln(w, "the exports do not hold up")
		return ErrNotVerified
	}
	_, err := fmt.Fprintf(w, "verified: tournament %s, %d events, head hash %s\n", id, rep.Events, rep.HeadHash)
	return err
}
