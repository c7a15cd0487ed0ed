package bot

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot/internal/bottest"
)

// variants are the expert configurations measured while building it (the decisions
// docs/decisions/016-the-expert-plays-lookahead-playouts.md, docs/decisions/012-the-expert-looks-two-plies-deep.md and
// docs/decisions/013-the-late-solve-starts-at-ten-hidden-tiles.md); BenchmarkVariantVsReference plays any of
// them against the reference. NewExpert's options are among them.
var variants = map[string]struct {
	budget int
	opts   expertOpts
}{
	"x-base":     {2400, expertOpts{}},              // inference, match-aware, greedy playouts
	"x-uniform":  {2400, expertOpts{uniform: true}}, // the same with PIMC's sampling
	"x-look":     {2400, expertOpts{look: true}},    // lookahead playouts
	"l-exact":    {2400, expertOpts{look: true, exact: exactNodes}},
	"l-b40":      {2400, expertOpts{look: true, beta: 0.4}},
	"l-unif":     {2400, expertOpts{look: true, uniform: true}},
	"l-nomatch":  {2400, expertOpts{look: true, noMatch: true}},
	"l-all":      {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes}},
	"l-b80":      {2400, expertOpts{look: true, beta: 0.8, exact: exactNodes}},
	"l-b20":      {2400, expertOpts{look: true, beta: 0.2, exact: exactNodes}},
	"l-blk8":     {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, block: 5}},
	"l-2ply":     {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, plies: 2}},
	"e-all":      {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true}},
	"e-d12":      {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes}},
	"c-all":      {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5}},
	"c-2ply":     {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2}},
	"c-d16":      {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: 480, deepMax: 16, deepNodes: 4000, block: 5}},
	"t-x2":       {4800, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2}},
	"t-b20":      {2400, expertOpts{look: true, beta: 0.2, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2}},
	"t-3ply":     {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 3}},
	"t-blk10":    {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 10, plies: 2}},
	"t-blk0":     {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, plies: 2}},
	"t-b60":      {2400, expertOpts{look: true, beta: 0.6, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2}},
	"p-pip8":     {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2, pipW: 8}},
	"p-pip16":    {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2, pipW: 16}},
	"p-dbl3":     {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2, dbl: 3}},
	"p-mob1":     {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2, mob: 1}},
	"p-mob2":     {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2, mob: 2}},
	"p-deep480":  {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: 480, deepMax: 12, deepNodes: 3000, block: 5, plies: 2}},
	"p-dm10":     {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 10, deepNodes: deepNodes, block: 5, plies: 2}},
	"p-be8":      {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2, blkEmpty: 8}},
	"p-be16":     {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2, blkEmpty: 16}},
	"p-nb8":      {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2, netBlk: 8}},
	"p-nb4":      {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 12, deepNodes: deepNodes, block: 5, plies: 2, netBlk: 4}},
	"p-dm8":      {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: deepSolves, deepMax: 8, deepNodes: deepNodes, block: 5, plies: 2}},
	"p-dm10-s11": {2400, released}, // the expert with another seed (variantSeeds)
	"p-nodeep":   {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, equity: true, deep: 0, block: 5, plies: 2}},
	"d-12":       {2400, expertOpts{look: true, beta: 0.4, exact: exactNodes, deep: deepSolves, deepMax: 12, deepNodes: deepNodes}},
}

// variantSeeds are the expert's seeds of the variants that do not play with seed 1: the same
// player with another seed shows how much of a row's result is the luck of its sampling.
var variantSeeds = map[string]uint64{"p-dm10-s11": 11}

// BenchmarkVariantVsReference plays each variant against the reference (duel_test.go) on the
// deals of BenchmarkExpertVsReference, one op a deal sequence played from both seats:
// go test ./domain/bot -run '^$' -bench 'VariantVsReference/d-12$' -benchtime 200x -cpu 1.
func BenchmarkVariantVsReference(b *testing.B) { variantDuels(b, firstDeals) }

// BenchmarkVariantOnFreshDeals is BenchmarkVariantVsReference on the deals of
// BenchmarkExpertOnFreshDeals, to confirm on deals of their own what the first set chose.
func BenchmarkVariantOnFreshDeals(b *testing.B) { variantDuels(b, freshDeals) }

// variantDuels plays each variant against the reference on the deal sequences named deals.
func variantDuels(b *testing.B, deals string) {
	for _, name := range slices.Sorted(maps.Keys(variants)) {
		v := variants[name]
		b.Run(name, func(b *testing.B) {
			x := &Expert{seed: max(variantSeeds[name], 1), rollouts: v.budget, opts: v.opts}
			ref := &reference{seed: 2, playouts: v.budget}
			duel(b, deals, x, ref, b.N).report(b, name+" against the reference")
		})
	}
}

// BenchmarkVariantChoose times each variant's two-player decisions with a choice to make, on
// positions from matches of pimc against greedy, and reports the median and 99th percentile:
// go test ./domain/bot -run '^$' -bench 'VariantChoose/d-12$' -benchtime 1000x -cpu 1.
func BenchmarkVariantChoose(b *testing.B) {
	for _, name := range slices.Sorted(maps.Keys(variants)) {
		v := variants[name]
		b.Run(name, func(b *testing.B) {
			var views []domain.SeatView
			players := []domain.Strategy{NewPIMC(2, 240), NewGreedy()}
			for i := 0; len(views) < b.N; i++ {
				bottest.Play(b, bottest.Spec(bottest.Shape{Players: 2}, 0), bottest.Seed(fmt.Sprint("variant-positions/", i)), players, func(m *domain.Match, hands domain.HandLog) bool {
					if sv := m.SeatView(m.Turn(), hands); len(sv.LegalMoves) > 1 {
						views = append(views, sv)
					}
					return true
				})
			}
			x := &Expert{seed: 1, rollouts: v.budget, opts: v.opts}
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				if _, err := x.Choose(context.Background(), views[i]); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2])/1e6, "p50-ms")
			b.ReportMetric(float64(times[len(times)*99/100])/1e6, "p99-ms")
		})
	}
}

// TestReleasedIsItsRow: the expert NewExpert makes is the row docs/bots.md calls the expert,
// so BenchmarkExpertVsReference and that row measure the same player.
func TestReleasedIsItsRow(t *testing.T) {
	if v := variants["p-dm10"]; v.opts != released || v.budget != DefaultRollouts {
		t.Fatalf("p-dm10 is %+v at %d playouts; the released expert is %+v at %d", v.opts, v.budget, released, DefaultRollouts)
	}
}
