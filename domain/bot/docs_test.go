package bot

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The docs show the strategies in tables, and the ladder's figures; these tests hold them to
// AllNames and to LadderRating, so that a strategy added here, or measured again, fails until
// every page says so. A list or range of them in prose ("`level-1` … `level-8`") is held to
// the list by api/openapi's TestNoEnumCopied, with every other copy of a closed list.

// docPages are the pages that state the present: README.md and docs/*.md. The decision
// records (docs/decisions) keep what was decided when, in the names of their day.
func docPages(t *testing.T) map[string]string {
	t.Helper()
	names, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	for _, name := range append(names, "../../README.md") {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		pages[strings.TrimPrefix(name, "../../")] = string(b)
	}
	return pages
}

// table is one Markdown table of a page: its rows' cells, the header first.
type table struct {
	page string
	line int
	rows [][]string
}

func tables(page, text string) []table {
	var out []table
	var cur *table
	for i, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "|") {
			cur = nil
			continue
		}
		if cur == nil {
			out = append(out, table{page: page, line: i + 1})
			cur = &out[len(out)-1]
		}
		if strings.HasPrefix(line, "| ---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		cur.rows = append(cur.rows, cells)
	}
	return out
}

// nameCell is a first cell that names strategies: `x`, or a range `x` … `y`, each perhaps as
// its player, bot-x.
var nameCell = regexp.MustCompile("^`(?:bot-)?([a-z0-9-]+)`(?: … `(?:bot-)?([a-z0-9-]+)`)?$")

// expand is the strategies from a to b in AllNames' order; false when either is none.
func expand(a, b string) ([]string, bool) {
	all := AllNames()
	i, j := slices.Index(all, a), slices.Index(all, b)
	if i < 0 || j < i {
		return nil, false
	}
	return all[i : j+1], true
}

// strategiesOf is what a table's first column names, when every row names strategies.
func strategiesOf(tb table) ([]string, bool) {
	var names []string
	for _, row := range tb.rows[1:] {
		m := nameCell.FindStringSubmatch(row[0])
		if m == nil {
			return nil, false
		}
		if m[2] == "" {
			m[2] = m[1]
		}
		span, ok := expand(m[1], m[2])
		if !ok {
			return nil, false
		}
		names = append(names, span...)
	}
	return names, len(names) > 0
}

// TestDocsTablesListEveryStrategy: a table of the docs whose rows are strategies (or their
// players) lists every strategy once, or every level in order, and README.md and docs/ each
// have a table of all the strategies.
func TestDocsTablesListEveryStrategy(t *testing.T) {
	full := map[string]int{}
	for page, text := range docPages(t) {
		for _, tb := range tables(page, text) {
			names, ok := strategiesOf(tb)
			switch {
			case !ok:
				continue
			case slices.Equal(names, LevelNames()):
			case !slices.Equal(slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(AllNames()))):
				t.Errorf("%s:%d: the table names %v; the strategies are %v (domain/bot, AllNames)", page, tb.line, names, AllNames())
			default:
				full[filepath.Dir(page)]++
			}
		}
	}
	if full["."] == 0 || full["docs"] == 0 {
		t.Errorf("README.md has %d tables of every strategy and docs/ %d; want one each at least (a name not a strategy fails this too)", full["."], full["docs"])
	}
}

// ladderCell is a cell of the docs' ladder: the mean μ ± its standard error / the mean
// displayed rating.
var ladderCell = regexp.MustCompile(`^[-0-9.]+ ± [0-9.]+ / (-?[0-9.]+)$`)

// TestDocsLadderIsLadderRating: the ladder table of the docs (docs/bots.md, "The levels'
// ratings") shows every strategy's player with the displayed rating LadderRating holds in
// each format, so the order the API and the web form take from LadderRating is the one the
// docs show.
func TestDocsLadderIsLadderRating(t *testing.T) {
	ladders := 0
	for page, text := range docPages(t) {
		for _, tb := range tables(page, text) {
			if len(tb.rows) < 2 || len(tb.rows[1]) < 2 || !ladderCell.MatchString(tb.rows[1][1]) {
				continue
			}
			ladders++
			names, ok := strategiesOf(tb)
			if !ok || !slices.Equal(slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(AllNames()))) {
				t.Errorf("%s:%d: the ladder's rows are %v; the strategies are %v", page, tb.line, names, AllNames())
				continue
			}
			for r, row := range tb.rows[1:] {
				for c, cell := range row[1:] {
					format := strings.Trim(tb.rows[0][c+1], "`")
					want, ok := LadderRating(names[r], format)
					m := ladderCell.FindStringSubmatch(cell)
					if !ok || m == nil || m[1] != strconv.FormatFloat(want, 'f', 1, 64) {
						t.Errorf("%s:%d: %s in %s reads %q; LadderRating holds %.2f", page, tb.line, names[r], format, cell, want)
					}
				}
			}
		}
	}
	if ladders != 1 {
		t.Errorf("found %d ladder tables in the docs, want 1", ladders)
	}
}
