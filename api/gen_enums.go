//go:build ignore

// gen_enums writes the enums of the wire types' struct tags from their lists:
//
//	go run gen_enums.go
//
// It is run by go generate (see generate.go) before swag reads the tags: every field tagged
// enumsfrom:"<list>" gets the `enums` of that list of openapi.Lists, so that a closed list has
// one source and the documents follow it.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/allfives/allfives/api/openapi"
)

func main() {
	files, err := filepath.Glob("*.go")
	for _, name := range files {
		if err == nil && !strings.HasSuffix(name, "_test.go") {
			err = write(name)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// write rewrites the file name when a tag of it is stale.
func write(name string) error {
	src, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	out, err := openapi.WriteEnumTags(src)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if bytes.Equal(src, out) {
		return nil
	}
	return os.WriteFile(name, out, 0o644)
}
