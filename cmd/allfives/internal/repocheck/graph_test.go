package repocheck

import (
	"os/exec"
	"strings"
	"testing"
)

// module is the module's path, as go.mod names it.
const module = "github.com/allfives/allfives"

// goList runs `go list` with a template over the module's packages.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return strings.Fields(string(out))
}

// importGraph is each package of the module, by its path inside the module ("domain/bot"),
// with what its non-test files import: the module's packages by their paths inside the module,
// every other package by its import path.
type importGraph map[string][]string

// moduleGraph lists the module's import graph with `go list ./...`.
func moduleGraph(t *testing.T) importGraph {
	t.Helper()
	g := importGraph{}
	for _, line := range goList(t, "-f", "{{.ImportPath}}:{{join .Imports \",\"}}", module+"/...") {
		pkg, imports, _ := strings.Cut(line, ":")
		var deps []string
		for _, imp := range strings.Split(imports, ",") {
			if imp != "" {
				deps = append(deps, inModule(imp))
			}
		}
		g[inModule(pkg)] = deps
	}
	return g
}

// inModule is an import path as the layout names it: inside the module, without the module.
func inModule(path string) string {
	if path == module {
		return "."
	}
	return strings.TrimPrefix(path, module+"/")
}

// under reports whether pkg is dir or a package below it.
func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

// standard reports whether an import is of the standard library: its first element has no dot
// and it is no package of the module.
func standard(g importGraph, imp string) bool {
	if _, ours := g[imp]; ours {
		return false
	}
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}
