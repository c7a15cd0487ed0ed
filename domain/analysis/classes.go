package analysis

import "math"

// Class names how much a decision lost against the best candidate (docs/review.md,
// "Classes").
type Class string

// The classes, from no loss to the worst.
const (
	ClassBest       Class = "best"
	ClassGood       Class = "good"
	ClassInaccuracy Class = "inaccuracy"
	ClassMistake    Class = "mistake"
	ClassBlunder    Class = "blunder"
)

// thresholds are the most points a decision may lose and still be best, good, inaccuracy
// or mistake; above the last it is a blunder. docs/review.md gives the calibration behind
// them.
var thresholds = [4]float64{0.5, 2, 5, 12}

// AccuracyScale is the loss, in points, at which a decision's accuracy falls to 1/e of
// perfect: accuracy = 100 * mean(exp(-loss / AccuracyScale)) (docs/review.md, "Accuracy").
const AccuracyScale = 8.0

// classOf classes a loss.
func classOf(loss float64) Class {
	switch {
	case loss <= thresholds[0]:
		return ClassBest
	case loss <= thresholds[1]:
		return ClassGood
	case loss <= thresholds[2]:
		return ClassInaccuracy
	case loss <= thresholds[3]:
		return ClassMistake
	}
	return ClassBlunder
}

// add counts one decision of class c.
func (c *Classes) add(class Class) {
	switch class {
	case ClassBest:
		c.Best++
	case ClassGood:
		c.Good++
	case ClassInaccuracy:
		c.Inaccuracy++
	case ClassMistake:
		c.Mistake++
	default:
		c.Blunder++
	}
}

// credit is one decision's share of accuracy: 1 for no loss, falling smoothly with it.
func credit(loss float64) float64 { return math.Exp(-loss / AccuracyScale) }

// round2 keeps two decimals, which is all a Monte Carlo value means and keeps the JSON
// short; values are rounded before losses are taken, so a loss is what the values show.
func round2(x float64) float64 { return math.Round(x*100) / 100 }
