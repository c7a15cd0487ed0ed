package repocheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// root is the repository's top, from this package's directory, where go test runs its tests.
const root = "../../../.."

// readRepo returns the text of a file of the repository, by its path from the top
// ("docs/design.md").
func readRepo(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// repoFiles reads the repository's Go and Markdown files, and lists its other files by name
// (contents empty) so that links to them can be checked.
func repoFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != dir && (strings.HasPrefix(n, ".") || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		files[rel] = ""
		if strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, ".md") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// selfExamples is the file whose examples of broken references are broken on purpose, left
// out of the checks of the whole repository.
const selfExamples = "cmd/allfives/internal/repocheck/docrefs_test.go"
