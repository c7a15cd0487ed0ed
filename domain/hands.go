package domain

import (
	"fmt"
	"slices"
	"time"
)

// MaxRedeals bounds the search for a deal with a double. With 10 or more tiles dealt the chance
// of no double is below 1 in 20; reaching this bound means the seed or deck code is broken.
const MaxRedeals = 1000

// MatchSpec is what a new match is made of.
type MatchSpec struct {
	Players      []PlayerInfo
	Partnerships bool
	Target       int  // 0 means the default for the table
	Seeded       bool // the client chose the seed, for reproducible or duplicate play
	// Listed puts a match with open seats in the lobby.
	Listed bool
	// TurnSeconds is the clock (0: none); AutoplayAfter defaults to DefaultAutoplayAfter with it.
	TurnSeconds   int
	AutoplayAfter int
	// Rated makes the match move its players' ratings (docs/ratings.md); the referee checks
	// that every seat is a player or a bot.
	Rated bool
	// OfferSeconds makes the match an offer (a rematch): its reserved seats must all be taken
	// within it, or the clock cancels the match (0: not an offer).
	OfferSeconds int
	// BranchOf makes the match a branch of another (docs/review.md, "Play on"); nil: none.
	BranchOf *BranchOf
}

// SpecOf is the spec that made c: Start(SpecOf(c), seed, at) opens with c again, field for
// field, for the seed whose commitment c carries. The audit re-derives every match.created
// through it, and a rematch starts from its match's, so a field added to MatchCreated and
// MatchSpec is carried by both or fails the test that holds SpecOf to that.
func SpecOf(c MatchCreated) MatchSpec {
	return MatchSpec{
		Players: slices.Clone(c.Players), Partnerships: c.Partnerships, Target: c.Target, Seeded: c.Seeded,
		Listed: c.Listed, TurnSeconds: c.TurnSeconds, AutoplayAfter: c.AutoplayAfter, Rated: c.Rated,
		OfferSeconds: c.OfferSeconds, BranchOf: c.BranchOf,
	}
}

// Spec is the spec the match was created from (SpecOf its match.created).
func (m *Match) Spec() MatchSpec { return SpecOf(m.info) }

// Start returns the opening events of a new match: match.created and, unless a seat is open,
// the first hand.started (with an open seat, the last join deals).
func Start(spec MatchSpec, seed Seed, at time.Time) ([]Event, error) {
	table, err := NewTable(len(spec.Players), spec.Partnerships)
	if err != nil {
		return nil, err
	}
	target := spec.Target
	if target == 0 {
		target = table.DefaultTarget()
	} else if err := ValidateTarget(target); err != nil {
		return nil, err
	}
	players := make([]PlayerInfo, len(spec.Players))
	for i, p := range spec.Players {
		p.Seat = i
		switch p.Kind {
		case Open:
			p.Name, p.Bot = "", ""
			if !p.ReservedFor.IsZero() && p.ReservedFor.Name == "" {
				return nil, Invalidf("players[%d] is reserved: the reservation names whom the seat is kept for", i)
			}
		case Human, Bot:
			if !p.ReservedFor.IsZero() {
				return nil, Invalidf("players[%d] is %s: only an open seat is reserved for someone", i, p.Kind)
			}
		default:
			return nil, Invalidf("players[%d].kind must be human, bot or open", i)
		}
		players[i] = p
	}
	if err := startSpec(&spec, players); err != nil {
		return nil, err
	}
	r := &recorder{m: NewMatch("", seed), at: at}
	err = r.raise(MatchCreated{
		Players:       players,
		Partnerships:  spec.Partnerships,
		Target:        target,
		HandSize:      table.HandSize(),
		Rules:         RulesVersion,
		Commitment:    seed.Commitment(),
		Seeded:        spec.Seeded,
		Listed:        spec.Listed,
		TurnSeconds:   spec.TurnSeconds,
		AutoplayAfter: spec.AutoplayAfter,
		Rated:         spec.Rated,
		OfferSeconds:  spec.OfferSeconds,
		BranchOf:      spec.BranchOf,
	})
	if err != nil {
		return nil, err
	}
	if len(r.m.unfilledSeats()) > 0 {
		return r.events, nil
	}
	if err := r.startHand(LeadHighestDouble, 0); err != nil {
		return nil, err
	}
	return r.events, nil
}

// startHand deals the next hand. With the highest-double rule it redeals until a double is
// dealt and names its holder leader; with the winner rule, winner leads.
func (r *recorder) startHand(rule LeadRule, winner int) error {
	m := r.m
	number := m.hands + 1
	k := m.table.HandSize()
	if m.seed == nil {
		return ErrNoSeed
	}
	seed, err := DealSeed(m.info, *m.seed, number)
	if err != nil {
		return err
	}
	for attempt := 0; attempt < MaxRedeals; attempt++ {
		deal := DealDeck(Deck(seed, number, attempt), m.table.players, k)
		leader := winner
		if rule == LeadHighestDouble {
			seat, _, ok := deal.HighestDouble()
			if !ok {
				continue
			}
			leader = seat
		}
		sizes := make([]int, len(deal.Hands))
		for s := range sizes {
			sizes[s] = k
		}
		return r.raise(HandStarted{
			Hand: number, Leader: leader, Lead: rule, Redeals: attempt,
			Hands: deal.Hands, HandSizes: sizes, Boneyard: deal.Boneyard, BoneyardCount: len(deal.Boneyard),
		})
	}
	return fmt.Errorf("internal: no double in %d deals of hand %d", MaxRedeals, number)
}

// reachedTarget says whether some side has reached the target.
func (r *recorder) reachedTarget() bool {
	for _, s := range r.m.scores {
		if s >= r.m.info.Target {
			return true
		}
	}
	return false
}

// endMatch closes the match; the side with the highest score wins (only one side can reach the
// target on a single scoring event, since only one side scores at a time). A side that
// resigned never wins: the best of the others does.
func (r *recorder) endMatch() error {
	best := -1
	for side, s := range r.m.scores {
		if !r.m.sideResigned(side) && (best < 0 || s > r.m.scores[best]) {
			best = side
		}
	}
	return r.endMatchWon(best)
}

// endMatchWon closes the match with side winning, revealing the seed.
func (r *recorder) endMatchWon(side int) error {
	if r.m.seed == nil {
		return ErrNoSeed
	}
	return r.raise(MatchEnded{WinnerSide: side, Scores: r.m.Scores(), Seed: r.m.seed.String()})
}

// wentOut scores a domino: every opponent's pips rounded to five, each on its own.
func (r *recorder) wentOut(seat int) error {
	m := r.m
	side := m.table.SideOf(seat)
	pips := m.hand.pips()
	bonus := 0
	for s, p := range pips {
		if m.table.SideOf(s) != side {
			bonus += Round5(p)
		}
	}
	scores := m.Scores()
	scores[side] += bonus
	winner := side
	err := r.raise(HandEnded{
		Hand: m.hand.number, Outcome: OutcomeDomino, Seat: &seat, WinnerSide: &winner,
		Pips: pips, Points: bonus, Scores: scores,
	})
	if err != nil {
		return err
	}
	return r.afterHand(LeadWinner, seat)
}

// endBlocked scores a blocked hand: the side with strictly fewest pips scores the others'
// rounded pips less its own; a tie for fewest scores nothing.
func (r *recorder) endBlocked() error {
	m := r.m
	pips := m.hand.pips()
	sidePips := make([]int, m.table.Sides())
	for s, p := range pips {
		sidePips[m.table.SideOf(s)] += p
	}
	var winner *int
	points := 0
	if w, ok := fewest(sidePips); ok {
		winner = &w
		for side, p := range sidePips {
			if side != w {
				points += Round5(p)
			}
		}
		points -= Round5(sidePips[w])
	}
	scores := m.Scores()
	if winner != nil {
		scores[*winner] += points
	}
	err := r.raise(HandEnded{
		Hand: m.hand.number, Outcome: OutcomeBlocked, WinnerSide: winner,
		Pips: pips, Points: points, Scores: scores,
	})
	if err != nil {
		return err
	}
	return r.afterHand(LeadHighestDouble, 0)
}

// afterHand ends the match if the hand's points reached the target, else deals the next hand.
func (r *recorder) afterHand(rule LeadRule, winner int) error {
	if r.reachedTarget() {
		return r.endMatch()
	}
	return r.startHand(rule, winner)
}

// fewest returns the index of the strictly smallest value, or ok=false on a tie for smallest.
func fewest(vals []int) (int, bool) {
	best, tie := 0, false
	for i := 1; i < len(vals); i++ {
		switch {
		case vals[i] < vals[best]:
			best, tie = i, false
		case vals[i] == vals[best]:
			tie = true
		}
	}
	return best, !tie
}
