package analysis

// summarize sums up each seat's decisions and sets its side's margins against par.
func summarize(g *game, decisions []Decision, par []float64) []Seat {
	seats := make([]Seat, g.table.Players())
	credits := make([]float64, len(seats))
	losses := make([]float64, len(seats))
	for s := range seats {
		side := g.table.SideOf(s)
		seats[s] = Seat{Seat: s, Side: side, Margin: float64(margin(g.ended.Scores, side))}
		if par != nil {
			seats[s].ParMargin = round2(par[side])
			seats[s].Luck = seats[s].ParMargin
			seats[s].Skill = round2(seats[s].Margin - par[side])
		}
	}
	for _, d := range decisions {
		st := &seats[d.Seat]
		st.Judged++
		st.Classes.add(d.Class)
		credits[d.Seat] += credit(d.Loss)
		losses[d.Seat] += d.Loss
		if d.passedOver > 0 {
			st.PassedOver++
			st.PassedOverPoints += d.passedOver
		}
	}
	for s := range seats {
		seats[s].Accuracy = 100
		if n := seats[s].Judged; n > 0 {
			seats[s].Accuracy = round2(100 * credits[s] / float64(n))
			seats[s].MeanLoss = round2(losses[s] / float64(n))
		}
	}
	return seats
}
