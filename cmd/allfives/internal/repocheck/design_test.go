package repocheck

import (
	"slices"
	"strings"
	"testing"
)

// packageTable returns the packages docs/design.md's table of packages ("Layers") names, in
// the order of its rows: the first cell of each row, between backquotes.
func packageTable(t *testing.T) []string {
	t.Helper()
	_, table, ok := strings.Cut(readRepo(t, "docs/design.md"), "\n| package | its job |\n| --- | --- |\n")
	if !ok {
		t.Fatal(`docs/design.md has no table headed "| package | its job |"`)
	}
	var pkgs []string
	for _, row := range strings.Split(table, "\n") {
		if !strings.HasPrefix(row, "| `") {
			break
		}
		cell, _, _ := strings.Cut(strings.TrimPrefix(row, "| `"), "`")
		pkgs = append(pkgs, cell)
	}
	return pkgs
}

// TestDesignPackageTableListsEveryPackage: docs/design.md's table of packages has one row for
// each package `go list ./...` names and none for a package that is not there, so that a
// newcomer finds every room of the house in it.
func TestDesignPackageTableListsEveryPackage(t *testing.T) {
	documented := packageTable(t)
	var listed []string
	for _, pkg := range goList(t, module+"/...") {
		listed = append(listed, inModule(pkg))
	}
	for _, pkg := range listed {
		if !slices.Contains(documented, pkg) {
			t.Errorf("package %s has no row in docs/design.md's table of packages", pkg)
		}
	}
	for i, pkg := range documented {
		if !slices.Contains(listed, pkg) {
			t.Errorf("docs/design.md's table of packages has a row for %s, which `go list ./...` does not name", pkg)
		}
		if slices.Contains(documented[:i], pkg) {
			t.Errorf("docs/design.md's table of packages has two rows for %s", pkg)
		}
	}
}
