package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
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
