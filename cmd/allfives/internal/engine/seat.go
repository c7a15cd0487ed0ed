package engine

import (
	"fmt"
	"slices"

	"github.com/allfives/allfives/domain"
)

// Seat folds the events one seat reads (its `event` lines) into what that seat knows: the
// domain.SeatView the referee builds for a bot from the whole record, built here from the
// seat's share of it alone.
type Seat struct {
	seat    int
	table   domain.Table
	started bool
	target  int
	scores  []int
	handNo  int
	hand    []domain.Tile
	line    domain.Line
	sizes   []int
	bone    int
	log     domain.HandLog
	last    int
}

// NewSeat is the fold for seat, before any event.
func NewSeat(seat int) *Seat { return &Seat{seat: seat} }

// Apply folds the next event. Events come in seq order, each once; one out of order is an
// error, since a view built from a gap would be wrong.
func (s *Seat) Apply(e domain.Event) error {
	if e.Seq != s.last+1 {
		return fmt.Errorf("event %d after %d: events must come in order, each once", e.Seq, s.last)
	}
	s.last = e.Seq
	s.log.Record(e)
	switch d := e.Data.(type) {
	case domain.MatchCreated:
		t, err := domain.NewTable(len(d.Players), d.Partnerships)
		if err != nil {
			return err
		}
		s.table, s.started, s.target = t, true, d.Target
		s.scores = make([]int, t.Sides())
	case domain.HandStarted:
		s.handNo, s.line, s.bone = d.Hand, domain.Line{}, d.BoneyardCount
		s.sizes = slices.Clone(d.HandSizes)
		s.hand = nil
		if s.seat < len(d.Hands) {
			s.hand = slices.Clone(d.Hands[s.seat])
		}
	case domain.TilePlayed:
		return s.played(d)
	case domain.TileDrawn:
		s.bone--
		s.sizes[d.Seat]++
		if d.Seat == s.seat && d.Tile != nil {
			s.hand = append(s.hand, *d.Tile)
		}
	case domain.HandEnded:
		s.scores = slices.Clone(d.Scores)
	}
	return nil
}

func (s *Seat) played(d domain.TilePlayed) error {
	if s.line.Len() > 0 && !s.line.Fits(d.Tile, d.End) {
		return fmt.Errorf("%s does not fit the %s end", d.Tile, d.End)
	}
	s.line = s.line.With(d.Tile, d.End)
	s.sizes[d.Seat]--
	s.scores[s.table.SideOf(d.Seat)] += d.Points
	if d.Seat == s.seat {
		i := slices.Index(s.hand, d.Tile)
		if i < 0 {
			return fmt.Errorf("seat %d played %s, which it does not hold", d.Seat, d.Tile)
		}
		s.hand = slices.Delete(s.hand, i, i+1)
	}
	return nil
}

// Version is the seq of the last event folded.
func (s *Seat) Version() int { return s.last }

// View is the seat's view with the legal moves of a `go` line: what a bot decides from.
func (s *Seat) View(legal []domain.LegalMove) (domain.SeatView, error) {
	if !s.started || s.handNo == 0 {
		return domain.SeatView{}, fmt.Errorf("go before the match was dealt")
	}
	v := domain.SeatView{
		Seat: s.seat, Table: s.table, Target: s.target, Scores: slices.Clone(s.scores),
		HandNumber: s.handNo, Hand: slices.Clone(s.hand), Line: s.line,
		HandSizes: slices.Clone(s.sizes), Boneyard: s.bone, LegalMoves: legal,
	}
	v.History = s.log.Events()
	return v, nil
}
