package openapi

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain/bot"
)

// The layout rule "no enum copied": a closed list of Lists (the bot strategies, the tournament
// systems) is written out by hand nowhere. In package api's Go files, which become the API's
// documents, a list's values appear only in an enums tag that names its list with enumsfrom
// (go generate writes it) and never in an annotation's Enums(...) or in prose: prose names a
// list by reference ("one of the enum", "bot-X"). Elsewhere (docs, other packages, the web
// client) a list may be written out only whole, so that a value added to the Go list fails
// here until every such list says it; a Markdown code block is no list. Test files and
// generated files (docs/docs.go, api/client/*.gen.go, openapi.yaml, docs/swagger.*) are not
// read; nor are the changelog and the decision records, which keep the names of their day.

// closedList is one list as prose may write it: its values, the groups a whole enumeration
// must cover one of (the bots: the four of bot.Names, the levels), how a value may be prefixed
// (a bot's player, bot-X) and how many values make an enumeration.
type closedList struct {
	name    string
	groups  [][]string
	prefix  string
	extra   string // a pattern of values the list lacks that still name one ("level-9")
	atLeast int
}

func closedLists() []closedList {
	return []closedList{
		{name: "bots", groups: [][]string{bot.Names(), bot.LevelNames()}, prefix: "bot-", extra: `level-[0-9]+`, atLeast: 3},
		{name: "systems", groups: [][]string{Lists["systems"]()}, atLeast: 2},
	}
}

func (l closedList) values() []string { return slices.Concat(l.groups...) }

// names says whether v names a value of the list, one it holds or not ("level-9").
func (l closedList) names(v string) bool {
	return slices.Contains(l.values(), v) || l.extra != "" && regexp.MustCompile(`^(?:`+l.extra+`)$`).MatchString(v)
}

// mentions are the list's values written as words of text, each perhaps prefixed: the
// submatch indexes of each, the value second.
func (l closedList) mentions(text string) [][]int {
	alts := []string{}
	for _, v := range l.values() {
		alts = append(alts, regexp.QuoteMeta(v))
	}
	if l.extra != "" {
		alts = append(alts, l.extra)
	}
	re := regexp.MustCompile("(?:" + regexp.QuoteMeta(l.prefix) + ")?(" + strings.Join(alts, "|") + ")")
	word := func(at int) bool {
		return at >= 0 && at < len(text) && (text[at] == '-' || text[at] == '_' ||
			'a' <= text[at] && text[at] <= 'z' || 'A' <= text[at] && text[at] <= 'Z' || '0' <= text[at] && text[at] <= '9')
	}
	return slices.DeleteFunc(re.FindAllStringSubmatchIndex(text, -1), func(m []int) bool { return word(m[0]-1) || word(m[1]) })
}

// enumeration is a run of a list's values written one after another, ranges expanded.
type enumeration struct {
	line   int
	start  int // its first value's offset in the text
	text   string
	names  []string
	ranged bool
}

// joiner is what may stand between two values of one enumeration once quotes, backticks,
// comment marks and spaces are set aside; a range's mark, between its ends.
var (
	joiner    = regexp.MustCompile(`^(?:,|/|and|or|, and|, or|)$`)
	rangeMark = regexp.MustCompile(`^(?:…|\.\.\.?|to)$`)
	setAside  = strings.NewReplacer("\"", " ", "'", " ", "`", " ", "//", " ", "*", " ", "#", " ", "\n", " ", "\t", " ")
)

// enumerations are the runs of l's values in text.
func (l closedList) enumerations(text string) []enumeration {
	var out []enumeration
	var cur *enumeration
	prevEnd := -1
	for _, m := range l.mentions(text) {
		name := text[m[2]:m[3]]
		if cur != nil {
			between := text[prevEnd:m[2]]
			if l.prefix != "" {
				between = strings.TrimSuffix(between, l.prefix)
			}
			between = strings.Join(strings.Fields(setAside.Replace(between)), " ")
			switch {
			case joiner.MatchString(between):
				cur.names = append(cur.names, name)
			case rangeMark.MatchString(between) && l.ranges(cur.names[len(cur.names)-1], name, between):
				cur.names = append(cur.names, l.span(cur.names[len(cur.names)-1], name)[1:]...)
				cur.ranged = true
			default:
				cur = nil
			}
		}
		if cur == nil {
			out = append(out, enumeration{line: strings.Count(text[:m[2]], "\n") + 1, start: m[2], names: []string{name}})
			cur = &out[len(out)-1]
		}
		from := max(strings.LastIndex(text[:m[2]], "\n")+1, cur.start-40)
		cur.text = strings.TrimSpace(text[from:m[3]])
		prevEnd = m[3]
	}
	return slices.DeleteFunc(out, func(e enumeration) bool {
		return !e.ranged && len(slices.Compact(slices.Sorted(slices.Values(e.names)))) < l.atLeast
	})
}

// ranges says whether "a mark b" is a range of one group: "…" between any two values in
// order, "to" only from the group's first ("level-5 to level-8" names two levels).
func (l closedList) ranges(a, b, mark string) bool {
	for _, g := range l.groups {
		i := slices.Index(g, a)
		if i < 0 || !slices.Contains(g, b) && (slices.Contains(l.values(), b) || !l.names(b)) {
			continue
		}
		return mark != "to" || i == 0
	}
	return false
}

// span is a range's values from a to b in its group's order, b kept when the group lacks it.
func (l closedList) span(a, b string) []string {
	for _, g := range l.groups {
		i, j := slices.Index(g, a), slices.Index(g, b)
		switch {
		case i < 0:
		case j < 0:
			return []string{a, b}
		case j >= i:
			return g[i : j+1]
		}
	}
	return []string{a, b}
}

// whole says why e is not a whole list: a value the list lacks, or a group it touches but
// leaves incomplete; "" when it is whole.
func (l closedList) whole(e enumeration) string {
	for _, n := range e.names {
		if !slices.Contains(l.values(), n) {
			return n + " is not one of the list"
		}
	}
	for _, g := range l.groups {
		touched := slices.ContainsFunc(g, func(v string) bool { return slices.Contains(e.names, v) })
		for _, v := range g {
			if touched && !slices.Contains(e.names, v) {
				return "it lacks " + v
			}
		}
	}
	return ""
}

// copyFiles are the files the rule reads, by path from the repository root, with their text.
func copyFiles(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, "../../"))
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && path != "../.." || rel == "docs/decisions" || rel == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		read := strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go") ||
			strings.HasPrefix(rel, "docs/") && strings.HasSuffix(rel, ".md") || rel == "README.md" ||
			strings.HasPrefix(rel, "api/web/static/") && (strings.HasSuffix(rel, ".js") || strings.HasSuffix(rel, ".html"))
		if !read {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b[:min(len(b), 400)]), "Code generated") {
			return nil
		}
		out[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// withoutCode is a Markdown page with its code blocks (fenced, or indented four spaces)
// emptied, lines kept: a command that picks bots (--bots expert,pimc,greedy) lists no list.
func withoutCode(page string) string {
	lines := strings.Split(page, "\n")
	fenced := false
	for i, line := range lines {
		fence := strings.HasPrefix(strings.TrimSpace(line), "```")
		if fenced || fence || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			lines[i] = ""
		}
		if fence {
			fenced = !fenced
		}
	}
	return strings.Join(lines, "\n")
}

// enumsTagged is an enums tag with the rest of its struct tag, or an annotation's Enums(...).
var (
	enumsTagged = regexp.MustCompile("`[^`\n]*enums:\"([^\"]*)\"[^`\n]*`")
	enumsParam  = regexp.MustCompile(`Enums\(([^)]*)\)`)
)

// copies are what path (by its path from the repository root) copies of a closed list, each
// said as a finding.
func copies(path, text string) []string {
	var out []string
	strict := strings.HasPrefix(path, "api/") && strings.HasSuffix(path, ".go")
	if strings.HasSuffix(path, ".md") {
		text = withoutCode(text)
	}
	for _, l := range closedLists() {
		listed := func(vals string) bool {
			return slices.ContainsFunc(strings.Split(vals, ","), func(v string) bool { return l.names(strings.TrimSpace(v)) })
		}
		for _, m := range enumsTagged.FindAllStringSubmatch(text, -1) {
			if listed(m[1]) && !strings.Contains(m[0], `enumsfrom:"`+l.name+`"`) {
				out = append(out, fmt.Sprintf("%s: the tag %s copies the %s: say enumsfrom:%q and run go generate ./api/", path, m[0], l.name, l.name))
			}
		}
		for _, m := range enumsParam.FindAllStringSubmatch(text, -1) {
			if listed(m[1]) {
				out = append(out, fmt.Sprintf("%s: %s copies the %s into an annotation: take the parameter's enum from a tagged field", path, m[0], l.name))
			}
		}
		for _, e := range l.enumerations(enumsTagged.ReplaceAllString(text, "")) {
			switch why := l.whole(e); {
			case strict:
				out = append(out, fmt.Sprintf("%s:%d: %q writes out the %s in package api, whose words become the API's documents: name them by reference", path, e.line, e.text, l.name))
			case why != "":
				out = append(out, fmt.Sprintf("%s:%d: %q writes out the %s, and %s: name them by reference, or write them all", path, e.line, e.text, l.name, why))
			}
		}
	}
	return out
}

// TestNoEnumCopied holds the repository to the rule above.
func TestNoEnumCopied(t *testing.T) {
	files := copyFiles(t)
	if _, ok := files["api/match_wire.go"]; !ok || files["docs/bots.md"] == "" {
		t.Fatalf("read %d files, not api/match_wire.go and docs/bots.md: is the test running in api/openapi?", len(files))
	}
	for path, text := range files {
		for _, finding := range copies(path, text) {
			t.Error(finding)
		}
	}
}
