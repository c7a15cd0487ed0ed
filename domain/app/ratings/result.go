package ratings

import (
	"fmt"
	"slices"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/openskill"
)

// Seat is one seat of a rated match: the player in it and the side it scores for.
type Seat struct {
	Seat   int
	Player string
	Side   int
}

// Result is what a rated match's log says its rating needs: who sat where, the final side
// scores and the winning side.
type Result struct {
	Key
	Format     Format
	Seats      []Seat
	Scores     []int
	WinnerSide int
	// Resigned are the sides that resigned, in the order they did (docs/ratings.md,
	// "Resignation"): they rank below every other side, the first to resign last.
	Resigned []int
}

// ResultOf reads the result of match id from its log: its opening events (match.created and
// the joins and leaves before the first hand.started, which is where the seats are settled)
// and its match.ended, in seq order; the whole log does as well. ok is false for a match that
// is not rated: not created rated, not ended, or with a seat that is neither a bot nor bound
// to a player, or one player in two seats (the referee lets neither happen; a log that says
// so anyway is left unrated rather than rated wrong). The live projection and the rebuild
// both read results here, so they agree.
func ResultOf(id string, events []domain.Event) (res Result, ok bool, err error) {
	if len(events) == 0 || events[0].Type != domain.TypeMatchCreated {
		return Result{}, false, fmt.Errorf("match %s: a log starts with match.created", id)
	}
	created, isCreated := events[0].Data.(domain.MatchCreated)
	if !isCreated {
		return Result{}, false, fmt.Errorf("match %s: match.created holds %T", id, events[0].Data)
	}
	if !created.Rated {
		return Result{}, false, nil
	}
	table, err := domain.NewTable(len(created.Players), created.Partnerships)
	if err != nil {
		return Result{}, false, fmt.Errorf("match %s: %w", id, err)
	}
	seats := slices.Clone(created.Players)
	var end *domain.Event
	var resigned []int
	dealt := false
	for i := range events[1:] {
		e := &events[1+i]
		switch d := e.Data.(type) {
		case domain.SeatJoined:
			if !dealt && d.Seat >= 0 && d.Seat < len(seats) {
				seats[d.Seat] = domain.PlayerInfo{Seat: d.Seat, Name: d.Name, Kind: domain.Human, Player: d.Player}
			}
		case domain.SeatLeft:
			if !dealt && d.Seat >= 0 && d.Seat < len(seats) {
				seats[d.Seat] = domain.PlayerInfo{Seat: d.Seat, Kind: domain.Open}
			}
		case domain.HandStarted:
			dealt = true
		case domain.SeatResigned:
			if d.Seat >= 0 && d.Seat < len(seats) && !slices.Contains(resigned, table.SideOf(d.Seat)) {
				resigned = append(resigned, table.SideOf(d.Seat))
			}
		case domain.MatchEnded:
			end = e
		}
	}
	if end == nil {
		return Result{}, false, nil
	}
	ended := end.Data.(domain.MatchEnded)
	if len(ended.Scores) != table.Sides() || ended.WinnerSide < 0 || ended.WinnerSide >= table.Sides() {
		return Result{}, false, fmt.Errorf("match %s: match.ended has %d scores and winner side %d for %d sides", id, len(ended.Scores), ended.WinnerSide, table.Sides())
	}
	res = Result{
		Key:    Key{EndedAt: end.At.UTC(), MatchID: id},
		Format: FormatOf(table.Players(), table.Partnerships()), Scores: slices.Clone(ended.Scores),
		WinnerSide: ended.WinnerSide, Resigned: resigned,
	}
	seen := map[string]bool{}
	for i, p := range seats {
		var player string
		switch {
		case p.Kind == domain.Bot && p.Bot != "":
			player = BotPrefix + p.Bot
		case p.Kind == domain.Human && p.Player != "":
			player = p.Player
		default:
			return Result{}, false, nil
		}
		if seen[player] {
			return Result{}, false, nil
		}
		seen[player] = true
		res.Seats = append(res.Seats, Seat{Seat: i, Player: player, Side: table.SideOf(i)})
	}
	return res, true, nil
}

// Players lists the result's players in seat order.
func (r Result) Players() []string {
	out := make([]string, len(r.Seats))
	for i, s := range r.Seats {
		out[i] = s.Player
	}
	return out
}

// rateSides rates the teams by the final side scores, or, when a side resigned, by ranks in
// which every resigned side comes after the others, the first to resign last.
func rateSides(m openskill.Model, teams [][]openskill.Rating, res Result) ([][]openskill.Rating, error) {
	if len(res.Resigned) == 0 {
		scores := make([]float64, len(res.Scores))
		for i, sc := range res.Scores {
			scores[i] = float64(sc)
		}
		return m.Rate(teams, scores)
	}
	ranks := make([]int, len(res.Scores))
	for side, sc := range res.Scores {
		if slices.Contains(res.Resigned, side) {
			continue
		}
		ranks[side] = 1 // one more than the sides that scored more and did not resign
		for other, o := range res.Scores {
			if o > sc && !slices.Contains(res.Resigned, other) {
				ranks[side]++
			}
		}
	}
	for i, side := range res.Resigned {
		ranks[side] = len(res.Scores) - i
	}
	return m.RateRanks(teams, ranks)
}

// Rate rates one result under model m: before holds the players' standings in the result's
// format (a player missing from it is new, at the model's prior). It returns each seat's
// change and each player's standing after, in seat order. The sides are the teams; ranks
// come from the final side scores, equal scores sharing a rank (docs/ratings.md, "Ties"),
// except that a side that resigned ranks below the others (rateSides).
func Rate(m openskill.Model, res Result, before map[string]Standing) ([]Change, []Standing, error) {
	sides := len(res.Scores)
	teams := make([][]openskill.Rating, sides)
	members := make([][]int, sides) // seat indexes of res.Seats by side
	for i, s := range res.Seats {
		if s.Side < 0 || s.Side >= sides {
			return nil, nil, fmt.Errorf("match %s: seat %d is on side %d of %d", res.MatchID, s.Seat, s.Side, sides)
		}
		r := m.New()
		if st, ok := before[s.Player]; ok {
			r = st.Rating
		}
		teams[s.Side] = append(teams[s.Side], r)
		members[s.Side] = append(members[s.Side], i)
	}
	after, err := rateSides(m, teams, res)
	if err != nil {
		return nil, nil, fmt.Errorf("match %s: %w", res.MatchID, err)
	}
	changes := make([]Change, len(res.Seats))
	standings := make([]Standing, len(res.Seats))
	for side, seats := range members {
		for j, i := range seats {
			s := res.Seats[i]
			won := s.Side == res.WinnerSide
			st, ok := before[s.Player]
			if !ok {
				st = Standing{Player: s.Player, Format: res.Format}
			}
			st.Rating = after[side][j]
			st.Matches++
			if won {
				st.Wins++
			}
			changes[i] = Change{Key: res.Key, Player: s.Player, Format: res.Format, Seat: s.Seat, Won: won, Before: teams[side][j], After: after[side][j]}
			standings[i] = st
		}
	}
	return changes, standings, nil
}
