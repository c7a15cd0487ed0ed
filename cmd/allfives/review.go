package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/cmd/allfives/internal/verify"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/reviews"
)

const reviewUsage = `usage: allfives review [flags] FILE|-

Reviews the JSON export of a finished match (GET /api/v1/matches/{id}/export) with no server
and no database, with the engine the server uses (docs/review.md): each seat's accuracy, mean
loss, decisions by class, luck and skill, and the worst moves. --json prints the review as
GET /api/v1/matches/{id}/review answers it, byte for byte for the same budgets. The export's
chain and payloads must hold up (allfives verify says where they do not). "-" reads standard
input. The budgets default to the method's; each is in the method string.

flags:
`

// worstMoves is how many of the costliest decisions the summary lists.
const worstMoves = 5

// runReview is `allfives review FILE|-`.
func runReview(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("allfives review", flag.ContinueOnError)
	fs.SetOutput(stdout)
	asJSON := fs.Bool("json", false, "print the review's JSON, as the API answers it")
	var opts analysis.Options
	fs.IntVar(&opts.Rollouts, "rollouts", analysis.DefaultRollouts, "judgement playouts per decision")
	fs.IntVar(&opts.HindsightNodes, "hindsight-nodes", analysis.DefaultHindsightNodes, "hindsight search nodes per candidate")
	fs.IntVar(&opts.ParRuns, "par-runs", analysis.DefaultParRuns, "replays of the deals for par; -1 for none")
	fs.IntVar(&opts.ParRollouts, "par-rollouts", analysis.DefaultParRollouts, "playouts per decision of each par seat")
	fs.Usage = func() {
		io.WriteString(stdout, reviewUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return helpOK(err)
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("review: give one export file, or - for standard input; run allfives review -h")
	}
	body, err := verify.ReadExport(fs.Arg(0))
	if err != nil {
		return errors.New("review: " + strings.TrimPrefix(err.Error(), "verify: "))
	}
	view, events, err := exportedLog(body)
	if err != nil {
		return err
	}
	res, err := analysis.Review(ctx, events, opts)
	switch {
	case errors.Is(err, analysis.ErrNotFinished):
		return fmt.Errorf("review: %w: export the match once it has ended", domain.ErrMatchNotFinished)
	case err != nil:
		return fmt.Errorf("review: %w", err)
	}
	if *asJSON {
		b, err := reviews.Encode(res)
		if err != nil {
			return err
		}
		_, err = stdout.Write(b)
		return err
	}
	return printReview(stdout, view, res)
}

// exportedLog reads an export's match and its log as the chain commits to it (raw_data),
// refusing an export whose chain or payloads do not hold up, with verify's own checks.
func exportedLog(body []byte) (api.MatchView, []domain.Event, error) {
	view, events, res, err := verify.Log(body)
	if err != nil {
		return view, nil, fmt.Errorf("review: %w", err)
	}
	if events == nil {
		for _, c := range res.Checks {
			if !c.OK {
				return view, nil, fmt.Errorf("review: the export does not hold up (%s: %s); allfives verify checks it", c.Name, c.Detail)
			}
		}
		return view, nil, errors.New("review: the export does not hold up; allfives verify checks it")
	}
	return view, events, nil
}

// printReview writes the review as a reader wants it: a line per seat, then the worst moves.
func printReview(out io.Writer, view api.MatchView, res *analysis.Result) error {
	names := map[int]string{}
	for _, s := range view.Seats {
		names[s.Seat] = s.Name
	}
	fmt.Fprintf(out, "review of match %s\nmethod: %s\n\n", view.ID, res.Method)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "seat\tside\taccuracy\tmean loss\tjudged\tbest\tgood\tinacc.\tmistake\tblunder\tmargin\tluck (par)\tskill")
	for _, s := range res.Seats {
		c := s.Classes
		fmt.Fprintf(w, "%d %s\t%d\t%.1f\t%.2f\t%d\t%d\t%d\t%d\t%d\t%d\t%g\t%g\t%g\n", s.Seat, names[s.Seat], s.Side,
			s.Accuracy, s.MeanLoss, s.Judged, c.Best, c.Good, c.Inaccuracy, c.Mistake, c.Blunder, s.Margin, s.Luck, s.Skill)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	worst := slices.Clone(res.Decisions)
	worst = slices.DeleteFunc(worst, func(d analysis.Decision) bool { return d.Class == analysis.ClassBest })
	slices.SortStableFunc(worst, func(a, b analysis.Decision) int { return cmp.Compare(b.Loss, a.Loss) })
	if len(worst) == 0 {
		_, err := fmt.Fprintln(out, "\nevery judged move was best")
		return err
	}
	fmt.Fprintln(out, "\nworst moves:")
	for _, d := range worst[:min(worstMoves, len(worst))] {
		fmt.Fprintf(out, "  seq %d, hand %d, seat %d %s: played %s, best %s: lost %g (%s); in hindsight %s, lost %g\n",
			d.Seq, d.Hand, d.Seat, names[d.Seat], moveText(d.Played), moveText(d.Best), d.Loss, d.Class,
			moveText(d.Hindsight.Best), d.Hindsight.Loss)
	}
	return nil
}

// moveText writes a move as a reader says it: "play 2-5 left", "draw", "pass".
func moveText(m analysis.Move) string {
	if m.Tile == "" {
		return m.Action
	}
	return m.Action + " " + m.Tile + " " + m.End
}
