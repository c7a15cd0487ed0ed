package repocheck

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The rule of TestDocsStateThePresent. A page of docs/ (docs/decisions/ aside) or the README
// narrates its measurements machine by machine when
//   - a heading names a machine: the word VM or machine, as in "A fifth VM, a session later"
//     or "On a quiet machine"; or
//   - its prose tells of one machine or session after another: "another VM", "a later
//     session", "the third VM", "a session later", "the session after".
//
// A page may still say which machine a figure was measured on ("on the shared 2-core VM"):
// docs/performance.md's table does so for every figure. The history of what was measured
// where, and what was tried, belongs in docs/decisions/ and CHANGELOG.md.
var (
	machineHeading = regexp.MustCompile(`(?i)\b(VMs?|machines?)\b`)
	ordinals       = `first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth`
	machineStory   = regexp.MustCompile(`(?i)\b(another|an? (?:other|later|earlier|next|new|` + ordinals +
		`)|the (?:earlier|later|next|previous|last|` + ordinals + `)) (?:VM|machine|session)s?\b` +
		`|\b(?:VM|machine|session)s? (?:later|after|before)\b`)
)

// narrations returns one line per place in files (name to text) where a page the rule covers
// narrates, sorted.
func narrations(files map[string]string) []string {
	var bad []string
	for name, text := range files {
		inDocs := strings.HasPrefix(name, "docs/") && !strings.HasPrefix(name, "docs/decisions/")
		if !strings.HasSuffix(name, ".md") || !inDocs && name != "README.md" {
			continue
		}
		text = fenced.ReplaceAllString(text, "")
		for _, m := range heading.FindAllStringSubmatch(text, -1) {
			if machineHeading.MatchString(m[1]) {
				bad = append(bad, fmt.Sprintf("%s: the heading %q names a machine", name, m[1]))
			}
		}
		flat := strings.Join(strings.Fields(text), " ")
		for _, m := range machineStory.FindAllString(flat, -1) {
			bad = append(bad, fmt.Sprintf("%s: %q tells of one machine after another", name, m))
		}
	}
	slices.Sort(bad)
	return bad
}

// TestDocsStateThePresent: no page of docs/ outside docs/decisions/, nor the README, narrates
// the history of its measurements machine by machine (the rule is above).
func TestDocsStateThePresent(t *testing.T) {
	for _, b := range narrations(repoFiles(t, root)) {
		t.Error(b)
	}
}

// TestNarrationsRule: the rule flags a machine in a heading and a story of machines and
// sessions in prose, even wrapped over two lines, and passes the machine a figure was
// measured on, the pages of docs/decisions/, fenced code and other files.
func TestNarrationsRule(t *testing.T) {
	files := map[string]string{
		"docs/p.md": "# P\n\n## A fifth VM, a session later\n\nMeasured on the shared 2-core VM.\n" +
			"A later\nsession ran it on another VM.\n\n```sh\n# On a quiet machine\n```\n",
		"README.md":               "## On a quiet machine\n\nThe session after, the third VM.\n",
		"docs/decisions/001-x.md": "## A sixth VM\n\nA later session.\n",
		"other/notes.md":          "## A VM\n",
		"docs/p.go":               "// A later session\n",
	}
	got := narrations(files)
	want := []string{
		`README.md: "session after" tells of one machine after another`,
		`README.md: "the third VM" tells of one machine after another`,
		`README.md: the heading "On a quiet machine" names a machine`,
		`docs/p.md: "A fifth VM" tells of one machine after another`,
		`docs/p.md: "A later session" tells of one machine after another`,
		`docs/p.md: "another VM" tells of one machine after another`,
		`docs/p.md: "session later" tells of one machine after another`,
		`docs/p.md: the heading "A fifth VM, a session later" names a machine`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("narrations found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
