package main

import (
	"os/exec"
	"strings"
	"testing"
)

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

// TestDomainImportsOnlyTheStandardLibrary: the game package depends on nothing but the
// standard library (docs/design.md, "Layers").
func TestDomainImportsOnlyTheStandardLibrary(t *testing.T) {
	for _, dep := range goList(t, "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", module+"/domain") {
		if dep != module+"/domain" {
			t.Errorf("domain depends on %s", dep)
		}
	}
}

// TestNothingUnderDomainImportsAStore: stores are adapters of the referee's ports, never
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
