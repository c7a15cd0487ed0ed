package repocheck

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docPath is a page of docs/ named by its path in a Go comment, such as
// docs/decisions/002-checkpoints-off-the-commit-path.md.
var docPath = regexp.MustCompile(`\bdocs/[A-Za-z0-9_/-]+\.md\b`)

// missingDocPaths returns one line per page of docs/ that a hand-written Go file's comments
// name and that files lacks, sorted.
func missingDocPaths(files map[string]string) []string {
	var bad []string
	for name, text := range files {
		if !strings.HasSuffix(name, ".go") || generatedGo.MatchString(text) {
			continue
		}
		for _, p := range docPath.FindAllString(goComments([]byte(text)), -1) {
			if _, ok := files[p]; !ok {
				bad = append(bad, name+": names "+p+", which does not exist")
			}
		}
	}
	slices.Sort(bad)
	return slices.Compact(bad)
}

// TestDocPathsInCommentsExist: every page of docs/ a Go comment names by its path exists, so a
// comment that sends the reader to a decision of docs/decisions cannot outlive it. The
// examples of docrefs_test.go are broken on purpose, and left out.
func TestDocPathsInCommentsExist(t *testing.T) {
	files := repoFiles(t, root)
	delete(files, selfExamples)
	for _, b := range missingDocPaths(files) {
		t.Error(b)
	}
}

// TestMissingDocPathsRule: a missing page in a comment is found, a page that exists and a path
// in code rather than a comment pass.
func TestMissingDocPathsRule(t *testing.T) {
	files := map[string]string{
		"docs/decisions/001-a.md": "",
		"a.go":                    "package a\n\n// See docs/decisions/001-a.md and docs/decisions/002-b.md.\nvar p = \"docs/gone.md\"\n",
	}
	got := missingDocPaths(files)
	want := []string{"a.go: names docs/decisions/002-b.md, which does not exist"}
	if !slices.Equal(got, want) {
		t.Errorf("missingDocPaths found %q, want %q", got, want)
	}
}
