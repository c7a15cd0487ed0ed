package analysis

import (
	"fmt"
	"slices"

	"github.com/allfives/allfives/domain"
)

// point is one real decision of the log: the seat's view just before it, the whole deal as
// it stood then (for hindsight), and what the seat did.
type point struct {
	seq      int
	view     domain.SeatView
	hands    [][]domain.Tile
	boneyard []domain.Tile
	played   int // index of the move made in view.LegalMoves
}

// walk folds the log event by event and calls judge at every decision where the seat had
// more than one legal move, in the log's order.
func walk(g *game, judge func(point) error) error {
	m, err := domain.Rebuild("review", g.events[:1])
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadLog, err)
	}
	var log domain.HandLog
	log.Record(g.events[0])
	for _, e := range g.events[1:] {
		if seat, mv, ok := domain.ActionOf(e); ok && seat == m.Turn() {
			v := m.SeatView(seat, log)
			if len(v.LegalMoves) > 1 {
				p, err := pointAt(m, e.Seq, v, mv)
				if err != nil {
					return err
				}
				if err := judge(p); err != nil {
					return err
				}
			}
		}
		if err := m.Apply(e); err != nil {
			return fmt.Errorf("%w: %v", ErrBadLog, err)
		}
		log.Record(e)
	}
	return nil
}

// pointAt is the decision at seq, with the deal read from the match opened: the review
// comes after the match, when nothing is hidden any more.
func pointAt(m *domain.Match, seq int, v domain.SeatView, mv domain.LegalMove) (point, error) {
	played := slices.IndexFunc(v.LegalMoves, func(l domain.LegalMove) bool {
		return l.Action == mv.Action && (l.Action != domain.ActionPlay || l.Tile == mv.Tile && l.End == mv.End)
	})
	if played < 0 {
		return point{}, fmt.Errorf("%w: event %d is not a legal move", ErrBadLog, seq)
	}
	h := m.View(domain.SeatViewer(v.Seat).Opened()).Hand
	return point{seq: seq, view: v, hands: h.Hands, boneyard: h.BoneyardTiles, played: played}, nil
}
