package openapi

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain/bot"
)

// TestWriteEnumTags: a tag with enumsfrom gets its list's values and keeps its other keys,
// other tags and the rest of the file stay as they were, and a tag naming no list, or with
// no enums to write, is refused.
func TestWriteEnumTags(t *testing.T) {
	src := "package p\n\n// T is a wire type.\ntype T struct {\n" +
		"\tBot  string `json:\"bot\" enums:\"x,y\" enumsfrom:\"bots\" example:\"greedy\"`\n" +
		"\tKind string `json:\"kind\" enums:\"a,b\"`\n}\n"
	got, err := WriteEnumTags([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(src, `enums:"x,y"`, `enums:"`+strings.Join(bot.WeakestFirst(), ",")+`"`, 1)
	if string(got) != want {
		t.Errorf("written:\n%s\nwant:\n%s", got, want)
	}
	for name, bad := range map[string]string{
		"no such list": "package p\ntype T struct {\n\tA string `enums:\"x\" enumsfrom:\"colours\"`\n}\n",
		"no enums":     "package p\ntype T struct {\n\tA string `json:\"a\" enumsfrom:\"bots\"`\n}\n",
	} {
		if _, err := WriteEnumTags([]byte(bad)); err == nil {
			t.Errorf("%s: written without an error", name)
		}
	}
}

// TestEnumTagsAreFresh: every file of package api is as gen_enums.go writes it, so each
// enum tagged enumsfrom is its list as the list stands: run `go generate ./api/` and commit.
func TestEnumTagsAreFresh(t *testing.T) {
	files, err := filepath.Glob("../*.go")
	if err != nil {
		t.Fatal(err)
	}
	tagged := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		written, err := WriteEnumTags(src)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		tagged += bytes.Count(src, []byte(`enumsfrom:"`))
		if !bytes.Equal(written, src) {
			t.Errorf("%s: an enum tagged enumsfrom is stale: run go generate ./api/ and commit the result", name)
		}
	}
	if tagged == 0 {
		t.Fatal("no tag of package api says enumsfrom: is the test running in api/openapi?")
	}
}
