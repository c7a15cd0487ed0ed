package api_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// fileRule is the naming rule of package api's files (doc.go, "Where things are").
var fileRule = regexp.MustCompile(`^(match|seat|player|ticket|rating|review|seek|tournament|puzzle|server)(_[a-z]+)*\.go$`)

// fixedFiles are the files outside the rule.
var fixedFiles = map[string]bool{
	"doc.go": true, "generate.go": true, "gen_enums.go": true, "gen_openapi.go": true, "routes.go": true, "server.go": true,
}

// TestFilesFollowTheNamingRule holds every non-test Go file of package api to the rule of
// doc.go, so that a newcomer finds a route's handler by its path.
func TestFilesFollowTheNamingRule(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		checked++
		if !fixedFiles[name] && !fileRule.MatchString(name) {
			t.Errorf("%s does not follow the naming rule of doc.go: name it after its resource (match_moves.go)", name)
		}
	}
	if checked < len(fixedFiles) {
		t.Fatalf("checked %d files: is the test running in api/?", checked)
	}
}
