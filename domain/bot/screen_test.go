package bot

import (
	"maps"
	"slices"
	"testing"
)

// This file screens the round-5 methods of docs/decisions/022-extended-pimc-and-the-luck-of-the-deal.md
// against the reference, each on the screening deals (screenDeals), with the luck-corrected
// estimate beside the plain count (estimate_test.go): one op a deal sequence played from
// both seats, so -benchtime 200x plays 400 matches:
//
//	nice -n 19 go test ./domain/bot -run '^$' -bench 'ScreenVsReference/ext$' -benchtime 200x -cpu 1
//
// The row "released" is the released expert on the same deals.
func BenchmarkScreenVsReference(b *testing.B) {
	for _, name := range slices.Sorted(maps.Keys(screens)) {
		b.Run(name, func(b *testing.B) {
			vsReference(b, screenDeals, screens[name](), name+" against the reference, screening deals")
		})
	}
}

// screenDeals names the deal sequences the round-5 methods were screened on; none of the
// earlier sets, and not the confirming set (confirmDeals).
const screenDeals = "expert-vs-reference/r5-screen"

// confirmDeals names the deal sequences kept to confirm a method chosen on screenDeals. No
// method has been played on them.
const confirmDeals = "expert-vs-reference/r5-confirm"

// screens are the players screened, by row name.
var screens = map[string]func() chooser{
	"released": func() chooser { return NewExpert(1, DefaultRollouts) },
	"ext":      func() chooser { return extended{x: NewExpert(1, DefaultRollouts)} },
	"ext-pv8":  func() chooser { return extended{x: NewExpert(1, DefaultRollouts), presume: 8} },
}

// BenchmarkConfirmVsReference plays a screened row on the confirming deals, for a method
// whose screen clears the bar (docs/decisions/022-extended-pimc-and-the-luck-of-the-deal.md):
//
//	nice -n 19 go test ./domain/bot -run '^$' -bench 'ConfirmVsReference/<name>$' -benchtime 1500x -cpu 1
func BenchmarkConfirmVsReference(b *testing.B) {
	for _, name := range slices.Sorted(maps.Keys(screens)) {
		b.Run(name, func(b *testing.B) {
			vsReference(b, confirmDeals, screens[name](), name+" against the reference, confirming deals")
		})
	}
}
