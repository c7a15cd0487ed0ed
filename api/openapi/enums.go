package openapi

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/tournament"
)

// Lists are the closed lists the wire types carry as enums, by the name a field's
// `enumsfrom` tag gives, each from its one source. swag reads an enum only from the literal
// of a field's `enums` tag, so `go generate ./api/` first writes every tag that says
// enumsfrom:"<list>" from its list (gen_enums.go, WriteEnumTags), and TestEnumTagsAreFresh
// fails on a tag left stale.
var Lists = map[string]func() []string{
	// bots: the strategies a seat may name, weakest first on the ladder, so the web form
	// that reads the enum offers them in that order.
	"bots": bot.WeakestFirst,
	// systems: the tournament systems of domain/tournament's registry.
	"systems": tournament.Systems,
}

// enumsTag is the `enums` key of a struct tag with its value.
var enumsTag = regexp.MustCompile(`(^|\s)enums:"[^"]*"`)

// WriteEnumTags returns the Go source src with the `enums` value of every struct field tagged
// `enumsfrom` written from that list of Lists, comma-separated, the rest of the file as it
// was (gofmt'd). It refuses a tag naming no list of Lists, one without an `enums` key, and a tag
// that is not a raw string.
func WriteEnumTags(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	last := 0
	ast.Inspect(file, func(n ast.Node) bool {
		field, ok := n.(*ast.Field)
		if !ok || field.Tag == nil || err != nil {
			return err == nil
		}
		var tag string
		if tag, err = strconv.Unquote(field.Tag.Value); err != nil {
			return false
		}
		list, ok := reflect.StructTag(tag).Lookup("enumsfrom")
		if !ok {
			return true
		}
		at := fset.Position(field.Tag.Pos())
		values, known := Lists[list]
		switch {
		case !known:
			err = fmt.Errorf("line %d: enumsfrom %q names no list (%s)", at.Line, list, strings.Join(slices.Sorted(maps.Keys(Lists)), ", "))
		case !strings.HasPrefix(field.Tag.Value, "`"):
			err = fmt.Errorf("line %d: a tag with enumsfrom must be a raw string", at.Line)
		case !enumsTag.MatchString(tag):
			err = fmt.Errorf("line %d: enumsfrom %q without an enums key to write", at.Line, list)
		}
		if err != nil {
			return false
		}
		written := enumsTag.ReplaceAllString(tag, `${1}enums:"`+strings.Join(values(), ",")+`"`)
		out.Write(src[last:at.Offset])
		out.WriteString("`" + written + "`")
		last = at.Offset + len(field.Tag.Value)
		return true
	})
	if err != nil {
		return nil, err
	}
	out.Write(src[last:])
	return format.Source(out.Bytes())
}
