package bot

import (
	"context"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
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

// confirmDeals names the deal sequences kept to confirm a method chosen on screenDeals: ext
// and then the released expert were played on all 1,500 of them, and nothing was chosen on
// them (docs/decisions/023-a-learned-value-and-the-levels-measured-again.md).
const confirmDeals = "expert-vs-reference/r5-confirm"

// screens are the players screened, by row name.
var screens = map[string]func() chooser{
	"released": func() chooser { return NewExpert(1, DefaultRollouts) },
	"ext":      func() chooser { return extended{x: NewExpert(1, DefaultRollouts)} },
	"ext-pv8":  func() chooser { return extended{x: NewExpert(1, DefaultRollouts), ext: extOpts{presume: 8}} },
	"ext-k4":   func() chooser { return extended{x: NewExpert(1, DefaultRollouts), ext: extOpts{minDeals: 4}} },
	"learned":  func() chooser { return learned{x: NewExpert(1, DefaultRollouts), m: &trainedModel} },
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

// BenchmarkScreenChoose is each screened row's CPU time per two-player decision, on
// positions where the extended study applies (a choice to make, more than deepUnseen tiles
// hidden, the boneyard not empty), from matches of pimc against greedy; the mean over the
// run, from the process's CPU clock, so run it with -cpu 1 and nothing else of its own:
//
//	nice -n 19 go test ./domain/bot -run '^$' -bench ScreenChoose -benchtime 200x -cpu 1
func BenchmarkScreenChoose(b *testing.B) {
	for _, name := range slices.Sorted(maps.Keys(screens)) {
		b.Run(name, func(b *testing.B) {
			var views []domain.SeatView
			players := []domain.Strategy{NewPIMC(2, 240), NewGreedy()}
			for i := 0; len(views) < b.N; i++ {
				bottest.Play(b, bottest.Spec(bottest.Shape{Players: 2}, 0), bottest.Seed(fmt.Sprint("screen-positions/", i)), players, func(m *domain.Match, hands domain.HandLog) bool {
					v := m.SeatView(m.Turn(), hands)
					if len(v.LegalMoves) > 1 && v.Boneyard > 0 && bits.OnesCount32(read(v).unseen) > deepUnseen {
						views = append(views, v)
					}
					return true
				})
			}
			p := screens[name]()
			b.ResetTimer()
			wall := time.Now()
			start, ok := processCPU()
			for i := 0; i < b.N; i++ {
				if _, err := p.Choose(context.Background(), views[i]); err != nil {
					b.Fatal(err)
				}
			}
			if end, _ := processCPU(); ok {
				b.ReportMetric(float64(end-start)/1e6/float64(b.N), "cpu-ms/op")
			} else { // no process CPU clock here: wall-clock time, which includes waiting for a core
				b.ReportMetric(float64(time.Since(wall))/1e6/float64(b.N), "wall-ms/op")
			}
		})
	}
}
