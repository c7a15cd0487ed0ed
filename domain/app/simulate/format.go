package simulate

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// Format writes the report as a header, a table with one row per strategy, and a footer with
// the duplicate sweeps and the throughput.
func (r *Report) Format(w io.Writer) error {
	c := r.Config
	mode := fmt.Sprintf("%d players", c.Players)
	if c.Partnerships {
		mode = "4 players in partnerships"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d matches", r.Matches)
	if c.Duplicate {
		fmt.Fprintf(&b, " (%d deal sequences x %d seatings, duplicate)", r.Deals, r.Seatings)
	}
	fmt.Fprintf(&b, ", %s, target %s, lineup %s\n", mode, targetText(c), strings.Join(c.Lineup(), ","))
	sides := c.Players
	if c.Partnerships {
		sides = 2
	}
	fmt.Fprintf(&b, "each row counts one side per match; with %d sides an equal player would win %.1f%%\n\n", sides, 100/float64(sides))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "strategy\tmatches\twins\twin rate\t95% CI\tpoints/hand\tmean margin\tchoice p50\tchoice max\t")
	for _, row := range r.Rows {
		lo, hi := row.Interval()
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%.1f%% - %.1f%%\t%.2f\t%+.1f\t%s\t%s\t\n",
			row.Strategy, row.Matches, row.Wins, 100*row.WinRate(), 100*lo, 100*hi,
			row.PointsPerHand(), row.MeanMargin(), short(row.ChoiceQuantile(0.5)), short(row.ChoiceQuantile(1)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if c.Duplicate && r.Seatings > 1 {
		fmt.Fprintf(&b, "\nduplicate: of %d deal sequences,", r.Deals)
		swept := 0
		for _, row := range r.Rows {
			fmt.Fprintf(&b, " %s won every seating of %d,", row.Strategy, r.Sweeps[row.Strategy])
			swept += r.Sweeps[row.Strategy]
		}
		fmt.Fprintf(&b, " and %d were split\n", r.Deals-swept)
	}
	secs := r.Elapsed.Seconds()
	fmt.Fprintf(&b, "\n%d matches in %.1fs: %.1f matches/s with %d workers (%.1f per worker)\n",
		r.Matches, secs, float64(r.Matches)/secs, r.Workers, float64(r.Matches)/secs/float64(r.Workers))
	_, err := io.WriteString(w, b.String())
	return err
}

func targetText(c Config) string {
	if c.Target == 0 {
		return "default"
	}
	return fmt.Sprint(c.Target)
}

// short prints a duration with three significant digits, "-" for none.
func short(d time.Duration) string {
	switch {
	case d == 0:
		return "-"
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.1fµs", float64(d)/1e3)
	}
	return fmt.Sprintf("%.2fms", float64(d)/1e6)
}
