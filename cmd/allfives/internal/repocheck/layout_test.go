package repocheck

import (
	"slices"
	"strings"
	"testing"
)

// pureEngines are the packages that hold the game and the engines around it (docs/design.md,
// "Layers"): the standard library and each other is all they may import.
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
	"nothing in domain/ outside domain/app imports a service":     serviceImportedOutsideApp,
	"no service imports api or repository":                        serviceImportsAnAdapter,
	"the pure engines import the standard library and each other": impureOutsideApp,
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

// oldTree is the part of the import graph that the layout of docs/design.md, "Layers",
// replaced, as it was before: the services beside the engines in domain/, and the bots, the
// bots' and the domain's test support importing the referee for its Strategy and its service.
var oldTree = importGraph{
	"domain":                      {"context", "time"},
	"domain/bot":                  {"context", "domain", "domain/referee"},
	"domain/bot/internal/bottest": {"testing", "domain", "domain/referee"},
	"domain/internal/matchtest":   {"testing", "domain", "domain/referee"},
	"domain/review":               {"domain", "domain/bot"},
	"domain/rating":               {"math"},
	"domain/referee":              {"domain", "domain/audit", "domain/names", "domain/players"},
	"domain/players":              {"domain", "domain/names"},
	"domain/ratings":              {"domain", "domain/rating"},
	"domain/reviewer":             {"domain", "domain/referee", "domain/review"},
	"domain/bot/tourney":          {"domain", "domain/referee"},
	"domain/audit":                {"domain"},
	"domain/names":                {"strings", "golang.org/x/text/secure/precis"},
	"api":                         {"domain", "domain/referee", "domain/reviewer"},
}

// movedTo is where this layout put each package of oldTree that moved.
var movedTo = map[string]string{
	"domain/rating": "domain/openskill", "domain/review": "domain/analysis",
	"domain/referee": "domain/app/referee", "domain/players": "domain/app/players",
	"domain/ratings": "domain/app/ratings", "domain/reviewer": "domain/app/reviews",
	"domain/bot/tourney": "domain/app/simulate",
}

// moved is g with every package renamed as movedTo says, importers and imported alike.
func moved(g importGraph) importGraph {
	rename := func(p string) string {
		if to, ok := movedTo[p]; ok {
			return to
		}
		return p
	}
	out := importGraph{}
	for pkg, imports := range g {
		var deps []string
		for _, imp := range imports {
			deps = append(deps, rename(imp))
		}
		out[rename(pkg)] = deps
	}
	return out
}

// TestLayoutRulesCatchTheOldTree: the rules are not vacuous. The old tree breaks them: with
// its packages moved where they now live, the bots and the test support still import the
// referee; as it stood, services sat in domain/ beside the engines. No service imported api or
// a store before either (TestNothingUnderDomainImportsAStore forbade it), so that rule is shown
// to bite on a service that would import a store.
func TestLayoutRulesCatchTheOldTree(t *testing.T) {
	outside := serviceImportedOutsideApp(moved(oldTree))
	for _, want := range []string{
		"domain/bot imports domain/app/referee",
		"domain/bot/internal/bottest imports domain/app/referee",
		"domain/internal/matchtest imports domain/app/referee",
	} {
		if !slices.Contains(outside, want) {
			t.Errorf("the rule on services outside domain/app misses %q; it found %q", want, outside)
		}
	}
	impure := impureOutsideApp(oldTree)
	for _, want := range []string{
		"domain/bot imports domain/referee",
		"domain/referee sits in domain/ outside domain/app but is not a pure engine",
		"domain/review sits in domain/ outside domain/app but is not a pure engine",
	} {
		if !slices.Contains(impure, want) {
			t.Errorf("the purity rule misses %q; it found %q", want, impure)
		}
	}
	if got := impureOutsideApp(moved(oldTree)); !slices.Contains(got, "domain/bot imports domain/app/referee") {
		t.Errorf("the purity rule lets the bots import the referee; it found %q", got)
	}
	store := moved(oldTree)
	store["domain/app/simulate"] = append(store["domain/app/simulate"], "repository/memstore")
	if got := serviceImportsAnAdapter(store); !slices.Equal(got, []string{"domain/app/simulate imports repository/memstore"}) {
		t.Errorf("the rule on services importing adapters found %q", got)
	}
}
