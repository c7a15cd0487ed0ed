package api_test

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
)

// generateLine returns the arguments of the //go:generate line in generate.go that runs tool.
func generateLine(t *testing.T, tool string) []string {
	t.Helper()
	src, err := os.ReadFile("generate.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if args, ok := strings.CutPrefix(line, "//go:generate "); ok && strings.Contains(args, tool) {
			return strings.Fields(args)
		}
	}
	t.Fatalf("generate.go has no go:generate line for %s", tool)
	return nil
}

// TestDocsAreFresh regenerates the Swagger documents and openapi.yaml into a temporary
// directory, with the very commands of generate.go, and fails when the committed ones differ:
// run `go generate ./...` and commit the result.
func TestDocsAreFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs swag")
	}
	tmp := t.TempDir()
	args := generateLine(t, "swag init")
	for i := range args {
		if args[i] == "--output" {
			args[i+1] = tmp
		}
	}
	cmd := exec.Command(args[0], args[1:]...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	for _, name := range []string{"docs.go", "swagger.json", "swagger.yaml"} {
		same(t, filepath.Join(tmp, name), filepath.Join("..", "docs", name))
	}
	swagger, err := os.ReadFile(filepath.Join(tmp, "swagger.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := api.ToOpenAPI3(swagger)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "openapi.yaml"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	same(t, filepath.Join(tmp, "openapi.yaml"), filepath.Join("..", "openapi.yaml"))
}

// TestAnnotationsAreFormatted runs swag fmt on a copy of the package and fails when it
// changes anything.
func TestAnnotationsAreFormatted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs swag")
	}
	tmp := t.TempDir()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := generateLine(t, "swag fmt")
	for i := range args {
		if args[i] == "--dir" {
			args[i+1] = tmp
		}
	}
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	for _, f := range files {
		same(t, filepath.Join(tmp, f), f)
	}
}

func same(t *testing.T, fresh, committed string) {
	t.Helper()
	a, err := os.ReadFile(fresh)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("%s is stale: run go generate ./... and commit the result", committed)
	}
}

// TestServedOpenAPIIsTheFile: /openapi.yaml, converted at run time from the compiled-in
// Swagger document, is byte for byte the committed openapi.yaml.
func TestServedOpenAPIIsTheFile(t *testing.T) {
	h := newHarness(t)
	r := h.do(http.MethodGet, "/openapi.yaml", nil)
	file, err := os.ReadFile("../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if r.status != 200 || !bytes.Equal(r.body, file) || !strings.HasPrefix(r.header.Get("Content-Type"), "application/yaml") {
		t.Fatalf("/openapi.yaml: %d %s, %d bytes vs the file's %d", r.status, r.header.Get("Content-Type"), len(r.body), len(file))
	}
}
