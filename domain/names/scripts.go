package names

import (
	"maps"
	"slices"
	"strings"
	"unicode"
)

// The mixed-script rule: UTS #39's "Moderately Restrictive" level (section 5.2), its script
// part. A name is one script (Common and Inherited characters, such as digits, spaces,
// punctuation and combining marks, go with any), or one of the Han-based combinations
// (Latin with Han and Hiragana and Katakana; with Han and Bopomofo; with Han and Hangul), or
// Latin with one other Recommended script that is neither Cyrillic nor Greek, the two whose
// letters pass for Latin ones. So "Вob" (Cyrillic В, Latin ob) is refused, "Борис" and "Δήμητρα"
// are welcome, and so are "Ali علي" and "Taro 太郎たろう".
//
// Written here, not taken from a module: github.com/mtibben/confusables implements the
// skeleton only, and golang.org/x/text has no script property for runes. The standard
// library's unicode.Scripts gives each rune's Script, not its Script_Extensions, so a
// character shared by a few scripts counts for its main one only (U+0660 ARABIC-INDIC DIGIT
// ZERO is Arabic, not also Thaana); Common and Inherited characters go with every script,
// as UTS #39 resolves them. The identifier-profile part of the level (which characters an
// identifier may hold at all) does not apply: a name is a nickname, with spaces and
// punctuation, and domain/names' own rule says which characters it may hold.

// checkScripts refuses a kept name that mixes scripts beyond the moderately restrictive level.
func checkScripts(kept string) error {
	sets := make([]scriptSet, 0, len(kept))
	var seen []string
	for _, r := range kept {
		name := scriptOf(r)
		if name == "" {
			continue // Common, Inherited: any script
		}
		sets = append(sets, augmented(name))
		if !slices.Contains(seen, name) {
			seen = append(seen, name)
		}
	}
	if len(sets) == 0 || len(resolve(sets)) > 0 {
		return nil // one script, or Han with Hiragana and Katakana, with Bopomofo or with Hangul
	}
	var rest []scriptSet
	for _, s := range sets {
		if !s[latin] {
			rest = append(rest, s)
		}
	}
	for name := range resolve(rest) { // rest is not empty: sets were not all Latin
		if name != "Cyrillic" && name != "Greek" && (recommended[name] || name == jpan || name == kore || name == hanb) {
			return nil // Latin and one other script that does not pass for it
		}
	}
	return refusef("mixes the scripts %s: a name is written in one script, or in Latin and one other that is not Cyrillic or Greek (Unicode's moderately restrictive level, UTS #39), so that it cannot pass for another", strings.Join(seen, ", "))
}

// scriptSet is a set of script names.
type scriptSet map[string]bool

// resolve is the scripts every one of sets (at least one) shares: UTS #39's resolved script
// set, Common and Inherited characters left out since they share every script.
func resolve(sets []scriptSet) scriptSet {
	out := maps.Clone(sets[0])
	for _, s := range sets[1:] {
		for name := range out {
			if !s[name] {
				delete(out, name)
			}
		}
	}
	return out
}

// The names UTS #39 gives the writing systems that combine several scripts, and Latin's.
const (
	jpan  = "Jpan" // Han, Hiragana, Katakana
	kore  = "Kore" // Han, Hangul
	hanb  = "Hanb" // Han, Bopomofo
	latin = "Latin"
)

// augmented is a script's augmented script set (UTS #39, section 5.1): Han also stands for
// Japanese, Korean and Han with Bopomofo; the kana for Japanese; Hangul for Korean.
func augmented(name string) scriptSet {
	switch name {
	case "Han":
		return scriptSet{name: true, hanb: true, jpan: true, kore: true}
	case "Hiragana", "Katakana":
		return scriptSet{name: true, jpan: true}
	case "Hangul":
		return scriptSet{name: true, kore: true}
	case "Bopomofo":
		return scriptSet{name: true, hanb: true}
	}
	return scriptSet{name: true}
}

// recommended is UAX #31's Table 4, the Recommended Scripts (Common and Inherited aside):
// those in everyday modern use.
var recommended = map[string]bool{
	"Arabic": true, "Armenian": true, "Bengali": true, "Bopomofo": true, "Cyrillic": true,
	"Devanagari": true, "Ethiopic": true, "Georgian": true, "Greek": true, "Gujarati": true,
	"Gurmukhi": true, "Han": true, "Hangul": true, "Hebrew": true, "Hiragana": true,
	"Kannada": true, "Katakana": true, "Khmer": true, "Lao": true, "Latin": true,
	"Malayalam": true, "Myanmar": true, "Oriya": true, "Sinhala": true, "Tamil": true,
	"Telugu": true, "Thaana": true, "Thai": true, "Tibetan": true,
}

// scriptNames is every script of the unicode package but Common and Inherited, the most
// used first, so that most runes are found at once.
var scriptNames = func() []string {
	first := []string{latin, "Cyrillic", "Greek", "Han", "Hiragana", "Katakana", "Hangul", "Arabic", "Hebrew"}
	out := slices.Clone(first)
	for _, name := range slices.Sorted(maps.Keys(unicode.Scripts)) {
		if name != "Common" && name != "Inherited" && !slices.Contains(first, name) {
			out = append(out, name)
		}
	}
	return out
}()

// scriptOf is r's script, or "" for Common, Inherited and unassigned runes.
func scriptOf(r rune) string {
	for _, name := range scriptNames {
		if unicode.Is(unicode.Scripts[name], r) {
			return name
		}
	}
	return ""
}
