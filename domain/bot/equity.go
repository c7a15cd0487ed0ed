package bot

import "math"

// This file is the expert's value of a finished playout in matches won rather than points:
// what the match is played for. A margin of 20 points early in a match to 250 is a small
// edge; the same 20 points when both sides are near the target decide the match.

// Equity's model of the rest of a match: each further hand a side scores about equityPace
// points, and the difference between two sides moves by about equitySpread points a hand,
// either way. They are rough figures for two-sided play to 250; the ordering of the moves they
// produce is what matters, and it is not sensitive to them.
const (
	equityPace   = 30
	equitySpread = 40
	equityScale  = 1000 // the value of a match won for certain, and minus that of one lost
)

// equityValue is side's chance of winning the match once the playout is over, as a value from
// -equityScale (lost) to +equityScale (won), plus the playout's margin in points, which
// breaks ties between moves when the match is as good as decided either way. A match decided
// in the playout is worth the whole scale. Otherwise the side's lead over the best other
// side (the lead of the next hand counted as leadWeight points) is set against the spread of
// the hands left, which are about as many as the leader needs to reach the target at
// equityPace points a hand.
func equityValue(g *sim, side int) int {
	m := margin(g, side)
	if g.state == matchOver {
		if int(g.winner) == side {
			return equityScale + m
		}
		return -equityScale + m
	}
	lead, top := int32(0), int32(0)
	best := int32(-1 << 30)
	for s := 0; s < int(g.sides); s++ {
		top = max(top, g.score[s])
		if s != side {
			best = max(best, g.score[s])
		}
	}
	lead = g.score[side] - best
	d := float64(lead)
	if g.state == wentOut {
		if int(g.winner) == side {
			d += leadWeight
		} else {
			d -= leadWeight
		}
	}
	hands := max(1, float64(g.target-top)/equityPace)
	z := d / (equitySpread * math.Sqrt(hands))
	return int(math.Round(equityScale*math.Erf(z/math.Sqrt2))) + m
}

// equitySlope is about how much equityValue changes for one point more to side, at the match
// score of the view: the slope of the chance of winning at the current lead, plus one for the
// margin it adds. A level's noise is in points; equitySlope turns it into equity.
func equitySlope(scores []int, side, target int) float64 {
	best, top := -1<<30, 0
	for s, sc := range scores {
		top = max(top, sc)
		if s != side {
			best = max(best, sc)
		}
	}
	lead := 0
	if side >= 0 && side < len(scores) {
		lead = scores[side] - best
	}
	width := equitySpread * math.Sqrt(max(1, float64(target-top)/equityPace))
	z := float64(lead) / width
	return 1 + equityScale*math.Sqrt(2/math.Pi)/width*math.Exp(-z*z/2)
}
