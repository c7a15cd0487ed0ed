package names_test

import (
	"errors"
	"testing"

	"github.com/allfives/allfives/domain/names"
)

// TestKeyJoinsWhatSameJoins: names Same calls one have one Key, names it tells apart have
// different keys, and a refused name has no key.
func TestKeyJoinsWhatSameJoins(t *testing.T) {
	groups := [][]string{
		{"Ada", "ada", "ADA", "ＡＤＡ", " Ada ", "ａｄａ"},
		{"Ada Lovelace", "ada  lovelace", "ADA LOVELACE"},
		{"Adà"},
		{"Ad a"},
		{"Straße"},
		{"STRASSE", "strasse"}, // lower-casing, not full case folding: ß stays ß
	}
	keys := map[string]int{}
	for g, group := range groups {
		for _, n := range group {
			k, err := names.Key(n)
			if err != nil {
				t.Fatalf("Key(%q): %v", n, err)
			}
			if other, seen := keys[k]; seen && other != g {
				t.Errorf("Key(%q) = %q, which group %d has too", n, k, other)
			}
			keys[k] = g
			if first, _ := names.Key(group[0]); first != k {
				t.Errorf("Key(%q) = %q, Key(%q) = %q: the same name under two keys", n, k, group[0], first)
			}
			if !names.Same(n, group[0]) {
				t.Errorf("Same(%q, %q) is false, but their keys agree", n, group[0])
			}
		}
	}
	for _, bad := range []string{"", "A\u200bda", "Ada\n", "\u2800"} {
		if k, err := names.Key(bad); !errors.Is(err, names.ErrName) || k != "" {
			t.Errorf("Key(%q) = %q, %v; want a refusal", bad, k, err)
		}
	}
}
