package problem

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
)

// TestErrorTableIsTheProblemTable: docs/api-errors.md's "Errors" table and kinds list the same
// codes with the same statuses, so a new code cannot reach clients undocumented, nor the docs
// promise one the server never sends.
func TestErrorTableIsTheProblemTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/api-errors.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Errors\n")
	if !ok {
		t.Fatal(`docs/api-errors.md has no "## Errors" section`)
	}
	if next := strings.Index(section, "\n## "); next >= 0 {
		section = section[:next]
	}
	documented := documentedCodes(t, section)
	for code, kind := range kinds {
		status, ok := documented[code]
		switch {
		case !ok:
			t.Errorf("%s (%d) is not in docs/api-errors.md's Errors table", code, kind.status)
		case status != kind.status:
			t.Errorf("%s is %d in docs/api-errors.md, %d in kinds", code, status, kind.status)
		}
	}
	for code := range documented {
		if _, ok := kinds[code]; !ok {
			t.Errorf("docs/api-errors.md lists %s, which kinds does not", code)
		}
	}
}

// documentedCodes reads the rows "| `CODE` | status | when |" of a Markdown table; a row may
// name several codes.
func documentedCodes(t *testing.T, table string) map[domain.Code]int {
	t.Helper()
	row := regexp.MustCompile("^\\| ((?:`[A-Z_]+`(?:, )?)+) \\| (\\d{3}) \\|")
	code := regexp.MustCompile("`([A-Z_]+)`")
	out := map[domain.Code]int{}
	for _, line := range strings.Split(table, "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		status, _ := strconv.Atoi(m[2])
		for _, c := range code.FindAllStringSubmatch(m[1], -1) {
			out[domain.Code(c[1])] = status
		}
	}
	if len(out) == 0 {
		t.Fatal("no rows read from docs/api-errors.md's Errors table")
	}
	return out
}
