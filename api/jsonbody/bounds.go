package jsonbody

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/allfives/allfives/domain"
)

// The range of an integer field of a request body is written once, in the field's tags
// `minimum`, `maximum` and `multipleOf`: swag puts them in the OpenAPI document and Strict
// checks them, so that what the document promises and what the server takes cannot drift. A
// value given out of that range, 0 included, is refused with the range; a field left out is
// not checked (the route's default applies).

// bound is the range an integer field takes.
type bound struct {
	min, max, step int64
}

// boundOf is the range that field f's tags give, if f is an integer field that has one.
func boundOf(f reflect.StructField) (bound, bool) {
	if !isInt(f.Type) {
		return bound{}, false
	}
	b := bound{min: math.MinInt64, max: math.MaxInt64, step: 1}
	given := false
	for tag, dst := range map[string]*int64{"minimum": &b.min, "maximum": &b.max, "multipleOf": &b.step} {
		v, ok := f.Tag.Lookup(tag)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return bound{}, false // TestRequestBounds refuses such a tag
		}
		*dst, given = n, given || tag != "multipleOf"
	}
	return b, given && b.step > 0
}

// holds says whether n is in the range.
func (b bound) holds(n int64) bool {
	return n >= b.min && n <= b.max && n%b.step == 0
}

// problem says what field name takes, and what it was given when that is a number or a string.
func (b bound) problem(name string, got jsontext.Value) string {
	what := "an integer"
	if b.step > 1 {
		what = fmt.Sprintf("a multiple of %d", b.step)
	}
	var s string
	switch {
	case b.min > math.MinInt64 && b.max < math.MaxInt64:
		s = fmt.Sprintf("%s must be %s from %d to %d", name, what, b.min, b.max)
	case b.min > math.MinInt64:
		s = fmt.Sprintf("%s must be %s of at least %d", name, what, b.min)
	default:
		s = fmt.Sprintf("%s must be %s of at most %d", name, what, b.max)
	}
	if k := got.Kind(); (k == '0' || k == '"') && utf8.Valid(got) {
		s += ", not " + clip(string(got), 32)
	}
	return s
}

// exampleTime is the time the problem of a time field shows.
const exampleTime = "2026-12-07T18:00:00Z"

// fieldProblem words the decoding error err of body into a dst of type t when it is about an
// integer field with a range or a time field: what the field takes. Any other error is left
// to why.
func fieldProblem(body []byte, t reflect.Type, err error) (string, bool) {
	var se *json.SemanticError
	if !errors.As(err, &se) || se.JSONPointer == "" || errors.Is(se.Err, json.ErrUnknownName) {
		return "", false
	}
	f, ok := fieldAt(t, se.JSONPointer)
	if !ok {
		return "", false
	}
	name := dotted(se.JSONPointer)
	if isTime(f.Type) {
		return name + " must be a time in RFC 3339, such as " + exampleTime, true
	}
	if b, ok := boundOf(f); ok {
		got := se.JSONValue // set for a number only
		if len(got) == 0 && se.ByteOffset >= 0 && se.ByteOffset < int64(len(body)) {
			got, _ = jsontext.NewDecoder(bytes.NewReader(body[se.ByteOffset:])).ReadValue()
		}
		return b.problem(name, got), true
	}
	return "", false
}

// checkBounds refuses the first integer given in body, a body already decoded into a value of
// type t, that is out of its field's range. The body is read again, not the value: only the
// body tells a field given as 0 from one left out.
func checkBounds(body []byte, t reflect.Type) error {
	if !hasBounds(t) {
		return nil
	}
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil // the end: Unmarshal already took the body whole
		}
		if tok.Kind() != '0' {
			continue
		}
		p := dec.StackPointer()
		f, ok := fieldAt(t, p)
		if !ok {
			continue
		}
		// Unmarshal put the number in an integer field: it is a whole number that fits.
		if b, ok := boundOf(f); ok && !b.holds(tok.Int()) {
			return domain.Invalidf("%s", b.problem(dotted(p), jsontext.Value(tok.String())))
		}
	}
}

// fieldAt is the struct field that JSON Pointer p names in a value of type t: the last
// member of p when it is a field of a struct (not an element of a list or a map).
func fieldAt(t reflect.Type, p jsontext.Pointer) (reflect.StructField, bool) {
	var (
		f     reflect.StructField
		found bool
	)
	for tok := range p.Tokens() {
		t, found = deref(t), false
		switch t.Kind() {
		case reflect.Struct:
			if f, found = member(t, tok); !found {
				return f, false
			}
			t = f.Type
		case reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		default:
			return f, false
		}
	}
	return f, found
}

// member is the field of struct type t whose JSON name is name.
func member(t reflect.Type, name string) (reflect.StructField, bool) {
	for f := range t.Fields() {
		if f.IsExported() && jsonName(f) == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// jsonName is the name field f goes by in JSON ("" when it is left out).
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	switch name {
	case "-":
		return ""
	case "":
		return f.Name
	}
	return name
}

// bounded caches hasBounds by type: a move's body, which has none, is not read twice.
var bounded sync.Map // reflect.Type -> bool

// hasBounds says whether a value of type t holds an integer field with a range.
func hasBounds(t reflect.Type) bool {
	if v, ok := bounded.Load(t); ok {
		return v.(bool)
	}
	has := anyBound(t, map[reflect.Type]bool{})
	bounded.Store(t, has)
	return has
}

func anyBound(t reflect.Type, seen map[reflect.Type]bool) bool {
	t = deref(t)
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Struct:
		for f := range t.Fields() {
			if _, ok := boundOf(f); ok || (f.IsExported() && anyBound(f.Type, seen)) {
				return true
			}
		}
	case reflect.Slice, reflect.Array, reflect.Map:
		return anyBound(t.Elem(), seen)
	}
	return false
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func isInt(t reflect.Type) bool {
	switch deref(t).Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return true
	}
	return false
}

func isTime(t reflect.Type) bool { return deref(t) == reflect.TypeFor[time.Time]() }

// clip shortens s to n runes, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
