package analysis

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/bot"
)

// The method's defaults (docs/review.md, "Value"). Changing one changes the method string,
// so a stored review can tell which method wrote it.
const (
	// Version numbers the method: the evaluation, the classes and the accuracy formula.
	Version = 3
	// DefaultRollouts is the judgement's budget per decision: four times the expert's in play.
	DefaultRollouts = 4 * bot.DefaultRollouts
	// DefaultHindsightNodes caps each hindsight candidate's exact search.
	DefaultHindsightNodes = 20000
	// DefaultParRuns is how many times par replays the match's deals.
	DefaultParRuns = 8
	// DefaultParRollouts is the budget of each expert seat in par: a quarter of play's, so that
	// eight replays of a match fit the review's time (docs/review.md, "Benchmarks").
	DefaultParRollouts = 600
)

// Options sets the review's budgets; a zero field takes its default.
type Options struct {
	Rollouts       int // judgement rollouts per decision
	HindsightNodes int // hindsight search nodes per candidate
	ParRuns        int // replays of the deals for par; negative for none
	ParRollouts    int // rollouts per decision of each par seat
}

func (o Options) withDefaults() Options {
	if o.Rollouts <= 0 {
		o.Rollouts = DefaultRollouts
	}
	if o.HindsightNodes <= 0 {
		o.HindsightNodes = DefaultHindsightNodes
	}
	if o.ParRuns == 0 {
		o.ParRuns = DefaultParRuns
	}
	o.ParRuns = max(o.ParRuns, 0)
	if o.ParRollouts <= 0 {
		o.ParRollouts = DefaultParRollouts
	}
	return o
}

// Method names the method and its budgets, e.g. "allfives-review/3 expert=9600
// hindsight=20000 par=8x600 classes=0.5/2/5/12 accuracy=exp(-loss/8)".
func (o Options) Method() string {
	o = o.withDefaults()
	return fmt.Sprintf("allfives-review/%d expert=%d hindsight=%d par=%dx%d classes=%g/%g/%g/%g accuracy=exp(-loss/%g)",
		Version, o.Rollouts, o.HindsightNodes, o.ParRuns, o.ParRollouts,
		thresholds[0], thresholds[1], thresholds[2], thresholds[3], AccuracyScale)
}

// derive is a 64-bit seed for one use of the match's seed: sha256(label || seed || n).
// Every random choice of the review starts from one, so the review is the same every time.
func derive(label string, seed domain.Seed, n int) uint64 {
	h := sha256.New()
	h.Write([]byte("allfives/review/v1/" + label))
	h.Write(seed[:])
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(n))
	h.Write(b[:])
	return binary.BigEndian.Uint64(h.Sum(nil))
}
