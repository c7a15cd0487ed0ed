package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/allfives/allfives/domain"
)

// shape is which fields of a JSON value are compared: an object's fields in their order, with
// the shape of each; an array's one shape for every element; nil fields for any other value,
// compared whole.
type shape struct {
	keys   []string
	fields map[string]*shape
	elem   *shape
}

// shapeOf reads the shape of a JSON value: each object's fields in the order written.
func shapeOf(b []byte) (*shape, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	sh, err := readShape(dec)
	if err != nil {
		return nil, err
	}
	return sh, nil
}

func readShape(dec *json.Decoder) (*shape, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	sh := &shape{}
	switch t {
	case json.Delim('{'):
		sh.fields = map[string]*shape{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, _ := k.(string)
			if sh.fields[key], err = readShape(dec); err != nil {
				return nil, err
			}
			sh.keys = append(sh.keys, key)
		}
	case json.Delim('['):
		for dec.More() {
			if sh.elem, err = readShape(dec); err != nil {
				return nil, err
			}
		}
	default:
		return sh, nil
	}
	_, err = dec.Token() // the closing delimiter
	return sh, err
}

// firstDiff walks what the export says (got) and what the events give (want) in step over
// sh's fields, and names the first place they differ with both values; "" when they agree.
// A field absent and a field null are the same: none.
func (sh *shape) firstDiff(path string, got, want any) (string, string) {
	if got == nil || want == nil {
		if got == nil && want == nil {
			return "", ""
		}
		return path, says(got, want)
	}
	if sh.fields != nil {
		g, okG := got.(map[string]any)
		w, okW := want.(map[string]any)
		if okG && okW {
			for _, k := range sh.keys {
				if p, d := sh.fields[k].firstDiff(path+"."+k, g[k], w[k]); p != "" {
					return p, d
				}
			}
			return "", ""
		}
	}
	if sh.elem != nil {
		g, okG := got.([]any)
		w, okW := want.([]any)
		if okG && okW {
			for i := range min(len(g), len(w)) {
				if p, d := sh.elem.firstDiff(path+"["+strconv.Itoa(i)+"]", g[i], w[i]); p != "" {
					return p, d
				}
			}
			if len(g) != len(w) {
				return path, fmt.Sprintf("the export has %d items, the events give %d", len(g), len(w))
			}
			return "", ""
		}
	}
	if !bytes.Equal(wire(got), wire(want)) {
		return path, says(got, want)
	}
	return "", ""
}

// says is what the export says and what the events give, as a detail shows them.
func says(got, want any) string {
	text := func(v any) string { return domain.Truncate(string(wire(v)), 200) }
	switch {
	case got == nil:
		return "the export has none, the events give " + text(want)
	case want == nil:
		return "the export says " + text(got) + ", the events give none"
	}
	return "the export says " + text(got) + ", the events give " + text(want)
}

// undetermined lists the export's top-level fields the events do not determine.
func (sh *shape) undetermined(got map[string]any) []string {
	var out []string
	for k := range got {
		if _, ok := sh.fields[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
