package repocheck

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The forms of a cross-reference, in Go comments and in the docs alike:
//   - a citation of a page's heading, (docs/api-matches.md, "Moves") or docs/api-matches.md "Moves", and of the
//     README's, (README, "Bots"); the quotes may be escaped inside a Go string;
//   - a Markdown link to a file of the repository, [text](api.md) or [text](../README.md#errors),
//     relative to the page that holds it.
var (
	citeRef = regexp.MustCompile(`\b(docs/[A-Za-z0-9_-]+\.md|README(?:\.md)?),? \\?"([^"\\]+)\\?"`)
	linkRef = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#*$`)
	bold    = regexp.MustCompile(`\*\*([^*]+?)\.?\*\*`)
	fenced  = regexp.MustCompile("(?ms)^```.*?^```")
	// goCommentBreak joins a comment's lines, so a citation wrapped over two lines is one.
	goCommentBreak = regexp.MustCompile(`\n[ \t]*//[ \t]?`)
)

// plain is a heading or bold phrase as it reads: without code marks or emphasis.
func plain(s string) string {
	return strings.TrimSpace(strings.NewReplacer("`", "", "*", "", "_", "").Replace(s))
}

// slug is the anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(plain(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// targets are the places a citation or link may name in one Markdown page: its headings (by
// text and by anchor) and its bold lead-ins, such as **Lean append.** in a list.
type targets struct{ names, anchors map[string]bool }

func targetsOf(md string) targets {
	t := targets{names: map[string]bool{}, anchors: map[string]bool{}}
	md = fenced.ReplaceAllString(md, "")
	for _, m := range heading.FindAllStringSubmatch(md, -1) {
		t.names[strings.ToLower(plain(m[1]))] = true
		t.anchors[slug(m[1])] = true
	}
	for _, m := range bold.FindAllStringSubmatch(md, -1) {
		t.names[strings.ToLower(plain(m[1]))] = true
	}
	return t
}

// checkRefs checks every cross-reference in files (repository-relative paths, with / as the
// separator, to their contents) against the pages and files among them, and returns one line
// per broken one.
func checkRefs(files map[string]string) []string {
	pages := map[string]targets{}
	for name, text := range files {
		if strings.HasSuffix(name, ".md") {
			pages[name] = targetsOf(text)
		}
	}
	exists := func(p string) bool {
		if _, ok := files[p]; ok {
			return true
		}
		for name := range files { // a directory, such as api/web
			if strings.HasPrefix(name, p+"/") {
				return true
			}
		}
		return false
	}
	var bad []string
	for name, text := range files {
		isGo, isMD := strings.HasSuffix(name, ".go"), strings.HasSuffix(name, ".md")
		if !isGo && !isMD {
			continue
		}
		if isGo {
			text = goCommentBreak.ReplaceAllString(text, " ")
		} else {
			text = strings.Join(strings.Fields(text), " ")
		}
		for _, m := range citeRef.FindAllStringSubmatch(text, -1) {
			page := m[1]
			if !strings.HasSuffix(page, ".md") {
				page += ".md"
			}
			t, ok := pages[page]
			switch {
			case !ok:
				bad = append(bad, name+": cites "+page+", which does not exist")
			case !t.names[strings.ToLower(plain(m[2]))]:
				bad = append(bad, name+`: cites `+page+` "`+m[2]+`", which has no such heading`)
			}
		}
		if !isMD {
			continue
		}
		for _, m := range linkRef.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			if file == "" {
				file = name
			} else {
				file = path.Join(path.Dir(name), file)
			}
			switch {
			case !exists(file):
				bad = append(bad, name+": links to "+target+", and "+file+" does not exist")
			case anchor != "" && !pages[file].anchors[anchor]:
				bad = append(bad, name+": links to "+target+", and "+file+" has no heading #"+anchor)
			}
		}
	}
	slices.Sort(bad)
	return bad
}

// TestCrossReferencesResolve: every (docs/x.md, "Heading") citation in the Go code and the
// docs names a page and a heading (or bold lead-in) it has, every (README, "Heading") one a
// heading of the README, and every Markdown link in the docs a file that exists and, with an
// #anchor, a heading of it.
func TestCrossReferencesResolve(t *testing.T) {
	files := repoFiles(t, root)
	if _, ok := files["README.md"]; !ok {
		t.Fatal("README.md not found from cmd/allfives/internal/repocheck")
	}
	delete(files, selfExamples)
	stale := map[string]bool{}
	for _, b := range checkRefs(files) {
		if slices.Contains(knownStale, b) {
			stale[b] = true
			continue
		}
		t.Error(b)
	}
	for _, b := range knownStale {
		if !stale[b] {
			t.Errorf("%q is fixed: take it off knownStale", b)
		}
	}
}

// knownStale are the broken references in files this change could not edit (their owners'
// work was under way); each is to be fixed there, and then taken off this list, which the test
// enforces.
var knownStale = []string{}

// TestCheckRefsFindsBrokenOnes: the checker itself reports a missing page, a missing heading,
// a missing file and a missing anchor, in Go comments and Markdown alike, and passes the good
// references beside them (wrapped over two comment lines, escaped in a Go string, a bold
// lead-in, an anchor with code in its heading, a link to a directory).
func TestCheckRefsFindsBrokenOnes(t *testing.T) {
	files := map[string]string{
		"README.md": "# Top\n\n## Bots\n\nSee [ops](docs/ops.md#under-load-allfives-bench), [web](api/web), " +
			"[gone](docs/gone.md) and [ops](docs/ops.md#nowhere).\n\n```sh\n# not a heading\n```\n",
		"docs/ops.md": "# Ops\n\n## Under load: `allfives bench`\n\n- **Lean append.** text\n\n" +
			"Cites (docs/ops.md, \"Lean append\") and (docs/ops.md, \"not a heading\").\n",
		"api/web/page.html": "",
		"a.go": "package a\n\n// Good (docs/ops.md, \"Under load:\n// allfives bench\") and (README, \"Bots\").\n" +
			"// Broken: (docs/missing.md, \"Moves\"), docs/ops.md \"Moves\" and (README, \"Errors\").\n" +
			"var help = \"see docs/ops.md, \\\"Lean append\\\"\"\n" +
			"var bad = \"see docs/ops.md, \\\"Durability\\\"\"\n",
	}
	got := checkRefs(files)
	want := []string{
		`README.md: links to docs/gone.md, and docs/gone.md does not exist`,
		`README.md: links to docs/ops.md#nowhere, and docs/ops.md has no heading #nowhere`,
		`a.go: cites README.md "Errors", which has no such heading`,
		`a.go: cites docs/missing.md, which does not exist`,
		`a.go: cites docs/ops.md "Durability", which has no such heading`,
		`a.go: cites docs/ops.md "Moves", which has no such heading`,
		`docs/ops.md: cites docs/ops.md "not a heading", which has no such heading`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("checkRefs found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
