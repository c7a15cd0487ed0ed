package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
)

// strictKeys checks the object keys of body, which has already decoded into a value of type t,
// against t's JSON names: each must be spelt exactly, and appear once per object.
//
// encoding/json matches names case-insensitively and lets the last of two equal keys win, so
// {"action":"play","Action":"draw"} would be a draw. A proxy or a log that reads the first
// key would then see another move than the one made; refusing such bodies keeps one meaning.
func strictKeys(body []byte, t reflect.Type) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	return walk(dec, t, "")
}

// walk consumes one JSON value from dec, checking the keys of objects that decode into structs.
func walk(dec *json.Decoder, t reflect.Type, at string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		names := map[string]reflect.Type{}
		if t != nil && t.Kind() == reflect.Struct {
			names = jsonNames(t)
		}
		seen := map[string]bool{}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return err
			}
			name := key.(string)
			field, known := names[name]
			switch {
			case seen[strings.ToLower(name)]:
				return fmt.Errorf("field %q is given more than once", at+name)
			case t != nil && t.Kind() == reflect.Struct && !known:
				return fmt.Errorf("unknown field %q: names are case-sensitive", at+name)
			}
			seen[strings.ToLower(name)] = true
			if err := walk(dec, field, at+name+"."); err != nil {
				return err
			}
		}
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if err := walk(dec, elem, fmt.Sprintf("%s%d.", at, i)); err != nil {
				return err
			}
		}
	default:
		return nil // a scalar: nothing inside it to check
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

// notText says why body's strings are not text that every reader reads alike, or "": bytes
// that are not UTF-8, or a \u escape of half a surrogate pair. encoding/json reads both as
// U+FFFD, so a name sent so would be kept as something its sender never wrote. The body has
// decoded already: it is well-formed JSON.
func notText(body []byte) string {
	if !utf8.Valid(body) {
		return "the body is not UTF-8 text"
	}
	for i := 0; i < len(body); i++ {
		if body[i] != '"' {
			continue
		}
		for i++; i < len(body) && body[i] != '"'; i++ {
			if body[i] != '\\' {
				continue
			}
			i++
			if i >= len(body) || body[i] != 'u' {
				continue // \" \\ \n and the like: one byte after the backslash
			}
			r := hex4(body[i+1:])
			i += 4
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return "a string holds half a surrogate pair (a \\u escape of U+DC00 to U+DFFF without its first half)"
			case r >= 0xD800 && r <= 0xDBFF:
				if next := hex4(body[min(i+3, len(body)):]); i+2 >= len(body) || body[i+1] != '\\' || body[i+2] != 'u' || next < 0xDC00 || next > 0xDFFF {
					return "a string holds half a surrogate pair (a \\u escape of U+D800 to U+DBFF without its second half)"
				}
				i += 6
			}
		}
	}
	return ""
}

// hex4 is the value of the four hex digits b starts with, or -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(d)
	}
	return r
}

// jsonNames maps the JSON names of t's exported fields to their types.
func jsonNames(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// decodeMove reads a move's body into dst as decodeJSON would. The bodies clients send, a flat
// object of plain strings, are read by plainObject without reflection; any other body, every
// malformed one included, goes through decodeStrict, so each refusal keeps its wording.
func decodeMove(c echo.Context, dst *MoveRequest) error {
	body, err := jsonBody(c)
	if err != nil {
		return err
	}
	var got MoveRequest
	var seen [3]bool
	ok := plainObject(body, func(key, val []byte) bool {
		var i int
		switch string(key) { // compared without a copy
		case "action":
			i, got.Action = 0, string(val)
		case "tile":
			s := string(val)
			i, got.Tile = 1, &s
		case "end":
			s := string(val)
			i, got.End = 2, &s
		default:
			return false // unknown, or spelt in another case: decodeStrict says which
		}
		if seen[i] {
			return false // given twice: decodeStrict refuses it
		}
		seen[i] = true
		return true
	})
	if ok {
		*dst = got
		return nil
	}
	return decodeStrict(body, dst)
}

// plainObject reports whether body is one JSON object, alone but for white space, whose keys
// and values are all strings of printable ASCII without escapes, calling pair for each member
// in order; it stops with false as soon as the body is anything else or pair says false. Such
// a body means the same to encoding/json as to this reading: no escapes to undo, no UTF-8 to
// repair, no numbers, no nesting.
func plainObject(body []byte, pair func(key, val []byte) bool) bool {
	i := skipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		return false
	}
	i = skipSpace(body, i+1)
	if i < len(body) && body[i] == '}' {
		return skipSpace(body, i+1) == len(body)
	}
	for {
		key, next, ok := plainString(body, i)
		if !ok {
			return false
		}
		i = skipSpace(body, next)
		if i >= len(body) || body[i] != ':' {
			return false
		}
		val, next, ok := plainString(body, skipSpace(body, i+1))
		if !ok || !pair(key, val) {
			return false
		}
		i = skipSpace(body, next)
		switch {
		case i < len(body) && body[i] == ',':
			i = skipSpace(body, i+1)
		case i < len(body) && body[i] == '}':
			return skipSpace(body, i+1) == len(body)
		default:
			return false
		}
	}
}

// plainString reads the string starting at body[i]: its contents and the index after it.
func plainString(body []byte, i int) ([]byte, int, bool) {
	if i >= len(body) || body[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(body); j++ {
		switch b := body[j]; {
		case b == '"':
			return body[i+1 : j], j + 1, true
		case b < 0x20 || b > 0x7e || b == '\\':
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// skipSpace is the index of the first byte at or after i that is not JSON white space.
func skipSpace(body []byte, i int) int {
	for i < len(body) && (body[i] == ' ' || body[i] == '\t' || body[i] == '\n' || body[i] == '\r') {
		i++
	}
	return i
}
