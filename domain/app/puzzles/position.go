package puzzles

import (
	"fmt"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
)

// decisionPoint is what the fold of a log knows at one decision: the seat's view and who
// made the decision.
type decisionPoint struct {
	view   domain.SeatView
	player string // "" when the decision was not the seat's lasting player's own
}

// fold replays a finished match's log and returns, for every seq in want, the deciding
// seat's view just before that event, and every lasting player of the match. It keeps the
// same HandLog the review's walk keeps, so a position is the view the review judged.
func fold(events []domain.Event, want map[int]bool) (map[int]decisionPoint, []string, error) {
	if len(events) == 0 {
		return nil, nil, fmt.Errorf("puzzles: empty log")
	}
	m, err := domain.Rebuild("puzzle", events[:1])
	if err != nil {
		return nil, nil, err
	}
	var log domain.HandLog
	log.Record(events[0])
	auto := autoSeats{autoplay: map[int]bool{}, resigned: map[int]bool{}, timedOut: -1}
	out := map[int]decisionPoint{}
	for _, e := range events[1:] {
		if want[e.Seq] {
			seat := m.Turn()
			player := ""
			if !auto.on(seat) {
				player = m.Players()[seat].Player
			}
			out[e.Seq] = decisionPoint{view: m.SeatView(seat, log), player: player}
		}
		auto.see(e)
		if err := m.Apply(e); err != nil {
			return nil, nil, err
		}
		log.Record(e)
	}
	var players []string
	for _, p := range m.Players() {
		if p.Player != "" {
			players = append(players, p.Player)
		}
	}
	return out, players, nil
}

// autoSeats follows which seats' moves their bot makes: a seat on autoplay or resigned for
// good, a seat that timed out for the rest of that turn. Those moves are no player's mistakes.
type autoSeats struct {
	autoplay, resigned map[int]bool
	timedOut           int // the seat whose turn the clock is playing, or -1
}

func (a *autoSeats) on(seat int) bool {
	return a.autoplay[seat] || a.resigned[seat] || a.timedOut == seat
}

func (a *autoSeats) see(e domain.Event) {
	switch d := e.Data.(type) {
	case domain.TurnTimedOut:
		a.timedOut = d.Seat
	case domain.SeatAutoplay:
		a.autoplay[d.Seat] = true
	case domain.SeatResumed:
		delete(a.autoplay, d.Seat)
	case domain.SeatResigned:
		a.resigned[d.Seat] = true
	case domain.TilePlayed:
		a.endTurn(d.Seat)
	case domain.TurnPassed:
		a.endTurn(d.Seat)
	case domain.HandEnded:
		a.timedOut = -1
	}
}

// endTurn ends a timed-out turn once its seat has played or passed (a draw keeps the turn).
func (a *autoSeats) endTurn(seat int) {
	if a.timedOut == seat {
		a.timedOut = -1
	}
}

// positionOf writes a seat's view as a puzzle's position: its own tiles, the public table,
// and the hand's history as the seat saw it with every draw a count.
func positionOf(v domain.SeatView) Position {
	p := Position{
		Seat: v.Seat, Players: v.Table.Players(), Partnerships: v.Table.Sides() < v.Table.Players(),
		Target: v.Target, Scores: append([]int{}, v.Scores...), HandNumber: v.HandNumber,
		Hand: []string{}, Line: []string{}, HandSizes: append([]int{}, v.HandSizes...),
		Boneyard: v.Boneyard, History: []Step{}, LegalMoves: []Move{},
	}
	for _, t := range v.Hand {
		p.Hand = append(p.Hand, t.String())
	}
	for _, l := range v.Line.Tiles() {
		p.Line = append(p.Line, l.String())
	}
	for _, e := range v.History {
		p.History = appendStep(p.History, e)
	}
	for _, l := range v.LegalMoves {
		p.LegalMoves = append(p.LegalMoves, analysisMove(l))
	}
	return p
}

// appendStep adds event e to the history: a play, a pass, or one more draw to the seat's
// run of draws. The tile of a draw is never written, even the seat's own: its hand shows it.
func appendStep(h []Step, e domain.Event) []Step {
	switch d := e.Data.(type) {
	case domain.TilePlayed:
		return append(h, Step{Seat: d.Seat, Action: domain.ActionPlay.String(), Tile: d.Tile.String(), End: d.End.String()})
	case domain.TurnPassed:
		return append(h, Step{Seat: d.Seat, Action: domain.ActionPass.String()})
	case domain.TileDrawn:
		if n := len(h); n > 0 && h[n-1].Action == domain.ActionDraw.String() && h[n-1].Seat == d.Seat {
			h[n-1].Count++
			return h
		}
		return append(h, Step{Seat: d.Seat, Action: domain.ActionDraw.String(), Count: 1})
	}
	return h
}

// analysisMove writes a legal move as the review does.
func analysisMove(l domain.LegalMove) Move {
	if l.Action != domain.ActionPlay {
		return Move{Action: l.Action.String()}
	}
	return Move{Action: l.Action.String(), Tile: l.Tile.String(), End: l.End.String()}
}

// Make returns the puzzles of a finished match's reviewed decisions by rule: its log (as an
// export carries it) and its review. Ids, ratings and times are the service's to set.
func Make(events []domain.Event, res *analysis.Result, rule analysis.PuzzleRule) ([]Puzzle, error) {
	want := map[int]bool{}
	for _, d := range res.Decisions {
		if rule.Puzzle(d) {
			want[d.Seq] = true
		}
	}
	if len(want) == 0 {
		return nil, nil
	}
	points, players, err := fold(events, want)
	if err != nil {
		return nil, err
	}
	var out []Puzzle
	for _, d := range res.Decisions {
		pt, ok := points[d.Seq]
		if !ok || !want[d.Seq] || pt.view.Seat != d.Seat {
			continue
		}
		out = append(out, Puzzle{
			Step: d.Seq, Seat: d.Seat, Player: pt.player, Players: players,
			Position: positionOf(pt.view), Options: append([]Option{}, d.Candidates...),
			Played: d.Played, Best: d.Best, Loss: d.Loss,
		})
	}
	return out, nil
}
