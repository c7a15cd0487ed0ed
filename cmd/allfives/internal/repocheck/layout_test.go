package repocheck

import (
	"slices"
	"strings"
	"testing"
)

// pureEngines are the packages that hold the game and the engines around it (docs/design.md,
// "Layers"): the standard library, each other and pureLibraries are all they may import.
var pureEngines = []string{
	"domain", "domain/openskill", "domain/analysis", "domain/bot", "domain/audit",
	"domain/notation", "domain/names", "domain/tournament", "domain/matchmaking",
}

// pureLibraries are the libraries outside the standard library a pure engine may import:
// text rules with no I/O, which domain/names applies to every name (PRECIS, confusables). A
// library joins the list only if it does no I/O and holds no state.
var pureLibraries = []string{"golang.org/x/text/", "github.com/mtibben/confusables"}

// pureLibrary reports whether imp is of one of pureLibraries.
func pureLibrary(imp string) bool {
	return slices.ContainsFunc(pureLibraries, func(lib string) bool {
		return imp == strings.TrimSuffix(lib, "/") || strings.HasSuffix(lib, "/") && strings.HasPrefix(imp, lib)
	})
}

// testSupport are the packages outside domain/app that only tests import; they follow the
// same rule as the engines whose tests they serve.
var testSupport = []string{"domain/internal/matchtest", "domain/bot/internal/bottest"}

// serviceImportedOutsideApp: nothing in domain/ outside domain/app imports a service.
func serviceImportedOutsideApp(g importGraph) []string {
	var bad []string
	for pkg, imports := range g {
		if !under(pkg, "domain") || under(pkg, "domain/app") {
			continue
		}
		for _, imp := range imports {
			if under(imp, "domain/app") {
				bad = append(bad, pkg+" imports "+imp)
			}
		}
	}
	return bad
}

// serviceImportsAnAdapter: no service imports api or a store; they own their ports instead.
func serviceImportsAnAdapter(g importGraph) []string {
	var bad []string
	for pkg, imports := range g {
		if !under(pkg, "domain/app") {
			continue
		}
		for _, imp := range imports {
			if under(imp, "api") || under(imp, "repository") {
				bad = append(bad, pkg+" imports "+imp)
			}
		}
	}
	return bad
}

// impureOutsideApp: every package in domain/ outside domain/app is a pure engine (or the test
// support of one) and imports only the standard library, the pure packages and pureLibraries.
func impureOutsideApp(g importGraph) []string {
	pure := append(slices.Clone(pureEngines), testSupport...)
	var bad []string
	for pkg, imports := range g {
		if !under(pkg, "domain") || under(pkg, "domain/app") {
			continue
		}
		if !slices.Contains(pure, pkg) {
			bad = append(bad, pkg+" sits in domain/ outside domain/app but is not a pure engine")
			continue
		}
		for _, imp := range imports {
			if !standard(g, imp) && !slices.Contains(pure, imp) && !pureLibrary(imp) {
				bad = append(bad, pkg+" imports "+imp)
			}
		}
	}
	return bad
}

// layoutRules are the rules of docs/design.md, "Layers", each over the import graph.
var layoutRules = map[string]func(importGraph) []string{
	"nothing in domain/ outside domain/app imports a service":                         serviceImportedOutsideApp,
	"no service imports api or repository":                                            serviceImportsAnAdapter,
	"the pure engines import the standard library, each other and the pure libraries": impureOutsideApp,
}

// TestLayoutRules: the module's import graph keeps every rule of the layout.
func TestLayoutRules(t *testing.T) {
	g := moduleGraph(t)
	for _, pkg := range pureEngines {
		if _, ok := g[pkg]; !ok {
			t.Errorf("the pure engine %s is not a package of the module", pkg)
		}
	}
	for name, rule := range layoutRules {
		bad := rule(g)
		slices.Sort(bad)
		for _, b := range bad {
			t.Errorf("%s: %s", name, b)
		}
	}
}

// TestDomainImportsOnlyTheStandardLibrary: the game package depends on nothing but the
// standard library (docs/design.md, "Layers").
func TestDomainImportsOnlyTheStandardLibrary(t *testing.T) {
	for _, dep := range goList(t, "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", module+"/domain") {
		if dep != module+"/domain" {
			t.Errorf("domain depends on %s", dep)
		}
	}
}

// TestNothingUnderDomainImportsAStore: stores are adapters of the services' ports, never
// dependencies of the domain packages.
func TestNothingUnderDomainImportsAStore(t *testing.T) {
	lines := goList(t, "-f", "{{.ImportPath}}:{{join .Imports \",\"}}", module+"/domain/...")
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, ":")
		for _, imp := range strings.Split(imports, ",") {
			if strings.HasPrefix(imp, module+"/repository") || strings.HasPrefix(imp, module+"/api") {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
	}
}

// TestLayoutRulesBite: the rules are not vacuous. A graph that breaks each of them once is
// caught by that rule, with the import at fault named; the standard library, the pure
// libraries and the pure packages pass.
func TestLayoutRulesBite(t *testing.T) {
	g := importGraph{
		"domain":             {"strings", "golang.org/x/text/secure/precis"},
		"domain/names":       {"strings", "domain", "github.com/mtibben/confusables"},
		"domain/bot":         {"context", "domain", "domain/app/referee"},
		"domain/scheduler":   {"domain"},
		"domain/notation":    {"domain", "github.com/some/parser"},
		"domain/app/referee": {"domain", "domain/names"},
		"domain/app/reviews": {"domain", "domain/app/referee", "repository/sqlite"},
		"repository/sqlite":  {"domain/app/referee"},
	}
	for name, want := range map[string][]string{
		"nothing in domain/ outside domain/app imports a service": {"domain/bot imports domain/app/referee"},
		"no service imports api or repository":                    {"domain/app/reviews imports repository/sqlite"},
		"the pure engines import the standard library, each other and the pure libraries": {
			"domain/bot imports domain/app/referee",
			"domain/notation imports github.com/some/parser",
			"domain/scheduler sits in domain/ outside domain/app but is not a pure engine",
		},
	} {
		got := layoutRules[name](g)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: found %q, want %q", name, got, want)
		}
	}
}

// TestPureLibrariesDocumented: docs/design.md, "Layers", names every library of pureLibraries,
// between backquotes, where it states what the pure packages may import.
func TestPureLibrariesDocumented(t *testing.T) {
	_, layers, _ := strings.Cut(readRepo(t, "docs/design.md"), "\n## Layers\n")
	layers, _, _ = strings.Cut(layers, "\n## ")
	_, rule, ok := strings.Cut(strings.Join(strings.Fields(layers), " "), "The pure packages,")
	if !ok {
		t.Fatal(`docs/design.md, "Layers", has no sentence beginning "The pure packages,"`)
	}
	rule, _, _ = strings.Cut(rule, ". The services")
	for _, lib := range pureLibraries {
		if name := "`" + strings.TrimSuffix(lib, "/") + "`"; !strings.Contains(rule, name) {
			t.Errorf("docs/design.md's rule of the pure packages does not name the pure library %s: %q", name, rule)
		}
	}
}
