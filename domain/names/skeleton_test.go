package names_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain/names"
)

// TestSkeletonJoinsLookAlikes: names that look alike share a skeleton, across scripts and
// case (Latin B, Cyrillic В and Greek Β; a Cyrillic е in bot-expert; capital I and small l;
// a fullwidth form); names that look different do not.
func TestSkeletonJoinsLookAlikes(t *testing.T) {
	groups := [][]string{
		{"Bob", "Вob", "Βob", "bob", "BOB", "ВОВ", "Ｂob"},
		{"bot-expert", "bot-expеrt", "Bot-Expert", "bоt-expert"},
		{"Ill", "lll", "III", "I1l"},
		{"Ada Lovelace", "ada  lovelace"},
		{"Bobby"},
		{"Ada"},
		{"Zoë"},
	}
	keys := map[string]int{}
	for g, group := range groups {
		first, err := names.Skeleton(group[0])
		if err != nil {
			t.Fatalf("Skeleton(%q): %v", group[0], err)
		}
		for _, n := range group {
			k, err := names.Skeleton(n)
			if err != nil {
				t.Fatalf("Skeleton(%q): %v", n, err)
			}
			if k != first {
				t.Errorf("Skeleton(%+q) = %+q, Skeleton(%+q) = %+q: look-alikes apart", n, k, group[0], first)
			}
			if other, seen := keys[k]; seen && other != g {
				t.Errorf("Skeleton(%+q) = %+q, which group %d has too", n, k, other)
			}
			keys[k] = g
			if !names.Alike(n, group[0]) {
				t.Errorf("Alike(%+q, %+q) is false", n, group[0])
			}
		}
	}
	if names.Alike("Bob", "Bobby") || names.Alike("Ada", "A\u200bda") {
		t.Error("names that differ are alike")
	}
	if k, err := names.Skeleton("A\u200bda"); !errors.Is(err, names.ErrName) || k != "" {
		t.Errorf("Skeleton of a refused name = %q, %v", k, err)
	}
}

// TestReservedForBots: every name that begins with bot-, or looks as if it did, is kept for
// the bots; a name that only holds "bot" is not.
func TestReservedForBots(t *testing.T) {
	for _, n := range []string{"bot-expert", "bot-expеrt", "BOT-random", "bоt-new", "bot-", "Bot-Ada"} {
		if !names.Reserved(n) {
			t.Errorf("%+q is not reserved", n)
		}
	}
	for _, n := range []string{"bot", "robot-ada", "Bottom", "bot expert", "Ada bot-"} {
		if names.Reserved(n) {
			t.Errorf("%+q is reserved", n)
		}
	}
}

// TestAdmitScripts: a new name is one script, a Han-based combination, or Latin with one
// other Recommended script but Cyrillic or Greek (UTS #39's moderately restrictive level);
// a mix beyond that is refused with a reason that names the scripts.
func TestAdmitScripts(t *testing.T) {
	for _, ok := range []string{
		"Bob", "Борис", "Δήμητρα", "李 小龍", "Taro 太郎たろうタロウ", "Kim 김치 金", "Ali علي", "Moshe משה",
		"Zoë 🂡 ♦", "ADA 42", "ＡＤＡ", "Tōkyō-3", "ミク", "王 ㄅㄆ", "Ivan ☆",
	} {
		if _, err := names.Admit(ok); err != nil {
			t.Errorf("Admit(%+q): %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"Вob":          "Cyrillic, Latin",
		"Βob":          "Greek, Latin",
		"bot-expеrt":   "Latin, Cyrillic",
		"Борис Δ":      "Cyrillic, Greek",
		"Ꭺda":          "Cherokee, Latin", // Cherokee is no Recommended script
		"Ali علي שלום": "Arabic, Hebrew",
		"ミク Миха":      "Katakana, Cyrillic",
	} {
		_, err := names.Admit(bad)
		if err == nil || !errors.Is(err, names.ErrName) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "moderately restrictive") {
			t.Errorf("Admit(%+q) = %v; want a refusal naming %s", bad, err, want)
		}
		// A name kept before the rule still reads: Enforce and the keys take it.
		if _, err := names.Enforce(bad); err != nil {
			t.Errorf("Enforce(%+q): %v", bad, err)
		}
	}
	if _, err := names.Admit("A\u200bda"); err == nil {
		t.Error("Admit took a name Enforce refuses")
	}
}
