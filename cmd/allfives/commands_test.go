package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// commandsOfRun are the commands run dispatches on (its switch on cmd), help left out: the
// code is the truth every list of commands is checked against.
func commandsOfRun(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "run.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	ast.Inspect(f, func(n ast.Node) bool {
		sw, ok := n.(*ast.SwitchStmt)
		if !ok {
			return true
		}
		if id, ok := sw.Tag.(*ast.Ident); !ok || id.Name != "cmd" {
			return true
		}
		for _, s := range sw.Body.List {
			for _, e := range s.(*ast.CaseClause).List {
				if lit, ok := e.(*ast.BasicLit); ok {
					if c, _ := strconv.Unquote(lit.Value); c != "help" {
						cmds = append(cmds, c)
					}
				}
			}
		}
		return false
	})
	if len(cmds) == 0 {
		t.Fatal("found no switch on cmd in run.go")
	}
	slices.Sort(cmds)
	return cmds
}

// TestEveryListOfCommandsMatchesTheCode: the usage text, the package's doc comment and the
// README's table of commands each name exactly the commands run dispatches on.
func TestEveryListOfCommandsMatchesTheCode(t *testing.T) {
	want := commandsOfRun(t)
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// doc.go's sentence "Its commands are serve (...), migrate (...), ... and bench (...);".
	comment := strings.ReplaceAll(string(doc), "\n// ", " ")
	_, sentence, _ := strings.Cut(comment, "Its commands are ")
	sentence, _, _ = strings.Cut(sentence, ";")
	// The README's table of commands, from its header to the blank line after it.
	_, table, _ := strings.Cut(string(readme), "| command | what it does |")
	table, _, _ = strings.Cut(table, "\n\n")
	texts := map[string]string{"usage": usage, "doc.go": sentence, "the README": table}
	lists := map[string]*regexp.Regexp{
		"usage":      regexp.MustCompile(`(?m)^  ([a-z]+) {2,}`),
		"doc.go":     regexp.MustCompile(`(?:^|, | and )([a-z]+) \(`),
		"the README": regexp.MustCompile("(?m)^\\| `([a-z]+)` \\|"),
	}
	for name, re := range lists {
		var got []string
		for _, m := range re.FindAllStringSubmatch(texts[name], -1) {
			if m[1] != "help" {
				got = append(got, m[1])
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s lists the commands %v; run has %v", name, got, want)
		}
	}
}
