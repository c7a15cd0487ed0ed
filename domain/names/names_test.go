package names_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain/names"
)

// TestHiddenCharactersRefused: names made only of characters that print as nothing, and names
// that hide one inside, are refused, each with a reason that names the character; so are names
// with nothing visible at all.
func TestHiddenCharactersRefused(t *testing.T) {
	for name, want := range map[string]string{
		"\u200b":                    "U+200B", // zero-width space alone
		"\u3164":                    "U+3164", // Hangul filler alone
		"\ufeff":                    "U+FEFF", // byte order mark alone
		"A\u200bda":                 "U+200B",
		"A\u00adda":                 "U+00AD", // soft hyphen
		"A\u2060da":                 "U+2060", // word joiner
		"A\u200dda":                 "U+200D", // zero-width joiner
		"A\u180eda":                 "U+180E", // Mongolian vowel separator
		"Ada\ufe0f":                 "U+FE0F", // variation selector
		"\u115fAda":                 "U+115F", // Hangul choseong filler
		"A\U000e0041":               "U+E0041",
		"Ada\u0600":                 "U+0600", // Arabic number sign, a format character
		"\u2800":                    "visible",
		"\u2800\u2800":              "visible",
		"\u0301":                    "visible", // a combining mark with nothing to sit on
		"\u3000":                    "1 to 64",
		"":                          "1 to 64",
		"Ada\r":                     "control",
		"\tAda":                     "control",
		"Ada\nB":                    "control",
		"\u202eadA":                 "bidirectional",
		"A\u2028B":                  "line separators",
		strings.Repeat("a", 65):     "1 to 64",
		strings.Repeat("\ufdfa", 4): "normalized", // each expands to 18 characters
	} {
		got, err := names.Enforce(name)
		if err == nil || !errors.Is(err, names.ErrName) || !strings.Contains(err.Error(), want) {
			t.Errorf("Enforce(%+q) = %q, %v; want a refusal naming %q", name, got, err, want)
		}
	}
}

// TestKeptForm: a name is kept in its PRECIS Nickname form (spaces folded, NFKC), with its
// case; other Unicode is welcome.
func TestKeptForm(t *testing.T) {
	for in, want := range map[string]string{
		"Ada":              "Ada",
		"  Ada  Lovelace ": "Ada Lovelace",
		"ＡＤＡ":              "ADA",
		"Ada\u3000B":       "Ada B",
		"Zoe\u0308":        "Zoë",
		"Zoë 🂡 ♦":          "Zoë 🂡 ♦",
		"李 小龍":             "李 小龍",
		"ﬁne":              "fine",
	} {
		if got, err := names.Enforce(in); err != nil || got != want {
			t.Errorf("Enforce(%+q) = %+q, %v; want %+q", in, got, err, want)
		}
	}
}

// TestSame: names equal under the profile's comparison are one name, whatever their case or
// width; others are not.
func TestSame(t *testing.T) {
	for _, pair := range [][2]string{{"Ada", "ada"}, {"Ada", "ＡＤＡ"}, {"ADA", "ａｄａ"}, {"Zoë", "zoe\u0308"}, {"Ada Lovelace", "ada  lovelace"}} {
		if !names.Same(pair[0], pair[1]) {
			t.Errorf("%+q and %+q are not the same name", pair[0], pair[1])
		}
	}
	for _, pair := range [][2]string{{"Ada", "Adа"}, {"Ada", "Ad a"}, {"Ada", "Adam"}, {"ß", "ss"}} {
		if names.Same(pair[0], pair[1]) {
			t.Errorf("%+q and %+q are the same name", pair[0], pair[1])
		}
	}
}
