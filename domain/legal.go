package domain

// LegalMove is one action the seat to move may take, a play with the points it scores.
type LegalMove struct {
	Action Action
	Tile   Tile
	End    End
	Points int
}

// Move converts the legal move to the command that takes it.
func (l LegalMove) Move() Move {
	if l.Action == ActionPlay {
		return Play(l.Tile, l.End)
	}
	return Move{Action: l.Action}
}

// legalMoves lists what the seat to move may do. A lead is listed on the left end; a tile
// that fits both ends is listed once per end. Drawing and passing appear only when no tile fits.
func (h *handState) legalMoves(seat int) []LegalMove {
	var moves []LegalMove
	hand := h.hands[seat]
	if h.line.Len() == 0 {
		for _, t := range hand {
			if h.mustLead == nil || t == *h.mustLead {
				moves = append(moves, LegalMove{Action: ActionPlay, Tile: t, End: Left, Points: scoreOf(t.Pips())})
			}
		}
		return moves
	}
	for _, t := range hand {
		for _, e := range [2]End{Left, Right} {
			if h.line.Fits(t, e) {
				moves = append(moves, LegalMove{Action: ActionPlay, Tile: t, End: e, Points: scoreOf(h.line.TotalAfter(t, e))})
			}
		}
	}
	switch {
	case len(moves) > 0:
		return moves
	case len(h.boneyard) > 0:
		return []LegalMove{{Action: ActionDraw}}
	default:
		return []LegalMove{{Action: ActionPass}}
	}
}

// LegalMoves lists seat's legal actions now; empty when it is not seat's turn or the match is
// over (finished, or cancelled with its tournament).
func (m *Match) LegalMoves(seat int) []LegalMove {
	if m.Closed() || m.hand.hands == nil || m.hand.over || seat != m.hand.turn {
		return []LegalMove{}
	}
	return m.hand.legalMoves(seat)
}
