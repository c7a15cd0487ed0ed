// Package names holds the one rule for the names players go by (docs/api.md, "Seats, tokens and what each caller sees"): which
// names are refused, the form a name is kept and shown in, and when two names are the same.
//
// It follows the PRECIS Nickname profile (RFC 8266) through golang.org/x/text/secure/precis,
// and adds to it what a name printed beside others needs: no invisible characters at all, and
// at least one that shows; for a new name, no mix of scripts beyond UTS #39's moderately
// restrictive level (Admit); and a second comparison, the confusable skeleton of UTS #39
// through github.com/mtibben/confusables (Skeleton), under which names that look alike are one. It is a package of its own, not part of domain (which imports only
// the standard library) nor of the referee, so that every place that takes a name (seats today,
// player accounts later) reads the one rule.
package names

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"
)

// MaxLength is the most characters (not bytes) a name may have, as typed and as kept.
const MaxLength = 64

// ErrName is what every refusal wraps; its text is the reason alone, worded to follow the
// field's name ("players[0].name must ...").
var ErrName = errors.New("name refused")

// refused is a reason a name is refused, wrapping ErrName.
type refused string

func (r refused) Error() string { return string(r) }
func (r refused) Unwrap() error { return ErrName }

func refusef(format string, args ...any) error { return refused(fmt.Sprintf(format, args...)) }

// Enforce returns the form of name that is kept and shown: the PRECIS Nickname form, that is
// NFKC-normalized (so "ＡＤＡ" becomes "ADA"), every run of spaces one ASCII space, and no
// space at either end. Case is kept; Same ignores it. A name is refused when it is not UTF-8,
// empty or longer than MaxLength, holds a control character, a line or paragraph separator, a
// bidirectional mark, a format or default-ignorable character (zero-width spaces and joiners,
// soft hyphens, byte order marks, Hangul fillers, variation selectors), anything else the
// profile disallows, or has no visible character.
func Enforce(name string) (string, error) {
	// Before trimming: a line break or tab at either end is refused, not quietly dropped.
	for _, r := range name {
		if err := checkRune(r); err != nil {
			return "", err
		}
	}
	name = strings.TrimSpace(name)
	if n := utf8.RuneCountInString(name); n == 0 || n > MaxLength || !utf8.ValidString(name) {
		return "", refusef("must be 1 to %d characters of UTF-8", MaxLength)
	}
	out, err := precis.Nickname.String(name)
	if err != nil {
		return "", disallowed(name)
	}
	if n := utf8.RuneCountInString(out); n > MaxLength {
		return "", refusef("must be at most %d characters once normalized, not %d", MaxLength, n)
	}
	if !visible(out) {
		return "", refusef("must hold a visible character: a letter, digit, punctuation mark or symbol")
	}
	return out, nil
}

// Admit is Enforce for a name taken now, by a new player or a seat: the kept form, also
// refused when it mixes scripts beyond UTS #39's moderately restrictive level (checkScripts),
// the way a name passes for one in another script ("Вob" with a Cyrillic В). Names kept before
// the rule are not judged again: Enforce, Key and Skeleton still read them.
func Admit(name string) (string, error) {
	kept, err := Enforce(name)
	if err != nil {
		return "", err
	}
	if err := checkScripts(kept); err != nil {
		return "", err
	}
	return kept, nil
}

// Same reports whether two names are one under the profile's comparison: equal once enforced
// and case-folded, so "Ada", "ada" and "ＡＤＡ" are the same name. A name that cannot be
// enforced is the same as nothing.
func Same(a, b string) bool {
	return precis.Nickname.Compare(a, b)
}

// checkRune refuses the characters that would let a name forge lines or reorder text where it
// is printed (the text export, logs) and those that print as nothing, so that "A\u200bda" could
// sit beside "Ada" and look the same.
func checkRune(r rune) error {
	switch {
	case unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp, unicode.Bidi_Control):
		return refusef("must not hold control characters, line separators or bidirectional marks (found %U)", r)
	case invisible(r):
		return refusef("must not hold invisible characters such as zero-width spaces or joiners, soft hyphens, byte order marks or fillers (found %U)", r)
	}
	return nil
}

// invisible covers Unicode's format characters (Cf) and its default-ignorable code points:
// Default_Ignorable_Code_Point is Other_Default_Ignorable_Code_Point, Cf and the variation
// selectors, less a few it takes out again, so this set holds it whole.
func invisible(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// visible says whether s has a character that shows: a letter, digit, punctuation mark or
// symbol other than the braille pattern with no dots, which prints as a blank. Marks alone
// and spaces are not enough.
func visible(s string) bool {
	for _, r := range s {
		if r != '\u2800' && unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S) {
			return true
		}
	}
	return false
}

// disallowed words the profile's refusal, naming the first character it disallows on its own
// when there is one (most are; a few are allowed only in some contexts).
func disallowed(name string) error {
	for _, r := range name {
		if r == ' ' {
			continue
		}
		if _, err := precis.Nickname.String(string(r)); err != nil {
			return refusef("must not hold %U, which names may not use (RFC 8266 nicknames)", r)
		}
	}
	return refusef("is not a name RFC 8266 allows: a character is out of place")
}

// Key is the form under which two names are compared: the PRECIS Nickname comparison key
// (enforced, then lower-cased), so that Key("Ada"), Key("ada") and Key("ＡＤＡ") are equal and
// Same(a, b) holds exactly when Key(a) == Key(b). A store keeps it beside the name, under a
// unique index, so that a name taken once is taken under every spelling the profile joins.
// A name Enforce refuses is refused here too.
func Key(name string) (string, error) {
	if _, err := Enforce(name); err != nil {
		return "", err
	}
	key, err := precis.Nickname.CompareKey(name)
	if err != nil {
		return "", disallowed(name)
	}
	return key, nil
}
