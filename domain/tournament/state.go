package tournament

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// Status is where a tournament is.
type Status string

// The statuses of a tournament.
const (
	Upcoming        Status = "upcoming"
	Running         Status = "running"
	Finished        Status = "finished"
	StatusCancelled Status = "cancelled"
)

// Round is one round as the log tells it.
type Round struct {
	Number     int
	Pairing    Pairing
	Commitment string
	Seed       string
	Matches    []string // by table; "" until its table.started
	Results    []*Result
	Ended      bool
}

// State is a tournament folded from its log.
type State struct {
	ID            string
	Spec          Spec
	Organiser     string
	OrganiserName string
	CreatedAt     time.Time
	Status        Status
	Entries       []Entrant // in entry order; withdrawn entries removed
	Playing       []string  // the entrants once started
	PlannedRounds int
	Rounds        []*Round
	Final         []Standing
	Cancel        *Cancelled
	Version       int
}

// Fold replays events into a tournament's state, refusing a log that breaks the order of
// things: the audit's check that the log tells a possible tournament.
func Fold(id string, events []Event) (*State, error) {
	st := &State{ID: id}
	for _, e := range events {
		if err := st.Apply(e); err != nil {
			return nil, fmt.Errorf("event %d (%s): %w", e.Seq, e.Type, err)
		}
	}
	return st, nil
}

// Apply folds one event into the state.
func (st *State) Apply(e Event) error {
	if e.Seq != st.Version+1 {
		return fmt.Errorf("seq %d after %d", e.Seq, st.Version)
	}
	if st.Version == 0 && e.Type != TypeCreated {
		return fmt.Errorf("the log begins with %s", TypeCreated)
	}
	if err := st.apply(e); err != nil {
		return err
	}
	st.Version = e.Seq
	return nil
}

func decode[T any](e Event) (T, error) {
	var v T
	err := json.Unmarshal(e.Data, &v)
	return v, err
}

func (st *State) apply(e Event) error {
	switch e.Type {
	case TypeCreated:
		d, err := decode[Created](e)
		if _, known := d.Spec.System.Rules(); err != nil || st.Version != 0 || !known {
			return fmt.Errorf("bad creation")
		}
		st.Spec, st.Organiser, st.OrganiserName, st.CreatedAt, st.Status = d.Spec, d.Organiser, d.OrganiserName, e.At, Upcoming
	case TypeEntered:
		d, err := decode[Entrant](e)
		if err != nil || st.Status != Upcoming || st.Entered(d.Player) {
			return fmt.Errorf("an entry only before the start, once per player")
		}
		st.Entries = append(st.Entries, d)
	case TypeWithdrawn:
		d, err := decode[Withdrawn](e)
		if err != nil || st.Status != Upcoming || !st.Entered(d.Player) {
			return fmt.Errorf("a withdrawal only of an entry, before the start")
		}
		st.Entries = slices.DeleteFunc(st.Entries, func(x Entrant) bool { return x.Player == d.Player })
	case TypeStarted:
		d, err := decode[Started](e)
		if err != nil || st.Status != Upcoming {
			return fmt.Errorf("a start only of an upcoming tournament")
		}
		st.Status, st.Playing, st.PlannedRounds = Running, d.Entrants, d.Rounds
	case TypeRound:
		d, err := decode[RoundStarted](e)
		if err != nil || st.Status != Running || d.Round != len(st.Rounds)+1 || (len(st.Rounds) > 0 && !st.Rounds[len(st.Rounds)-1].Ended) {
			return fmt.Errorf("a round starts after the last one ended")
		}
		st.Rounds = append(st.Rounds, &Round{Number: d.Round, Pairing: d.Pairing, Commitment: d.Commitment,
			Matches: make([]string, len(d.Tables)), Results: make([]*Result, len(d.Tables))})
	case TypeTable:
		d, err := decode[TableStarted](e)
		r := st.current()
		if err != nil || r == nil || r.Number != d.Round || d.Table < 0 || d.Table >= len(r.Matches) || r.Matches[d.Table] != "" || d.Match == "" {
			return fmt.Errorf("a table starts once, in the current round")
		}
		r.Matches[d.Table] = d.Match
	case TypeResult:
		d, err := decode[Result](e)
		r := st.current()
		if err != nil || r == nil || r.Number != d.Round || d.Table < 0 || d.Table >= len(r.Matches) || r.Matches[d.Table] != d.Match || r.Results[d.Table] != nil ||
			!slices.Equal(d.Seats, r.Pairing.Tables[d.Table].Seats) || len(d.Scores) != len(d.Seats) {
			return fmt.Errorf("a result once per started table, for its seats")
		}
		r.Results[d.Table] = &d
	case TypeRoundEnd:
		d, err := decode[RoundEnded](e)
		r := st.current()
		if err != nil || r == nil || r.Number != d.Round || slices.Contains(r.Results, nil) {
			return fmt.Errorf("a round ends when every table has its result")
		}
		r.Ended, r.Seed = true, d.Seed
	case TypeEnded:
		d, err := decode[Ended](e)
		if err != nil || st.Status != Running || len(st.Rounds) != st.PlannedRounds || (len(st.Rounds) > 0 && !st.Rounds[len(st.Rounds)-1].Ended) {
			return fmt.Errorf("a tournament ends after its last round")
		}
		st.Status, st.Final = Finished, d.Standings
	case TypeCancelled:
		d, err := decode[Cancelled](e)
		if err != nil || st.Status == Finished || st.Status == StatusCancelled {
			return fmt.Errorf("only a tournament not over is cancelled")
		}
		st.Status, st.Cancel = StatusCancelled, &d
		if r := st.current(); r != nil && !r.Ended && d.Seed != "" {
			r.Seed = d.Seed
		}
	default:
		return fmt.Errorf("unknown event type")
	}
	return nil
}

// current is the last round, nil before the first.
func (st *State) current() *Round {
	if len(st.Rounds) == 0 {
		return nil
	}
	return st.Rounds[len(st.Rounds)-1]
}

// Current is the round being played or last played, nil before the first.
func (st *State) Current() *Round { return st.current() }

// Entered says whether player holds an entry.
func (st *State) Entered(player string) bool {
	return slices.ContainsFunc(st.Entries, func(x Entrant) bool { return x.Player == player })
}

// Entry returns player's entry.
func (st *State) Entry(player string) (Entrant, bool) {
	i := slices.IndexFunc(st.Entries, func(x Entrant) bool { return x.Player == player })
	if i < 0 {
		return Entrant{}, false
	}
	return st.Entries[i], true
}

// Records are the rounds that ended, as standings take them.
func (st *State) Records() []RoundRecord {
	var out []RoundRecord
	for _, r := range st.Rounds {
		if !r.Ended {
			continue
		}
		rec := RoundRecord{Byes: r.Pairing.Byes}
		for _, res := range r.Results {
			rec.Results = append(rec.Results, *res)
		}
		out = append(out, rec)
	}
	return out
}

// Standings are the standings after the rounds that ended.
func (st *State) Standings() []Standing {
	players := st.Playing
	if st.Status == Upcoming {
		for _, e := range st.Entries {
			players = append(players, e.Player)
		}
	}
	return Standings(st.Spec.Format, st.Spec.Duplicate, players, st.Records(), st.rules().TieBreaks()...)
}

// Over says whether round r is over: it ended, or the tournament's cancel cut it short
// (docs/tournaments.md, "Life of a tournament"), which also reveals a duplicate round's seed.
// A round cut short counts toward no standing.
func (st *State) Over(r *Round) bool { return r.Ended || st.Status == StatusCancelled }

// RoundDone says whether every table of the current round has its result.
func (r *Round) RoundDone() bool { return !slices.Contains(r.Results, nil) }

// NextPairing is the pairing of the round after the last one ended, as the tournament's
// system pairs it.
func (st *State) NextPairing() Pairing { return st.rules().Pair(st) }

// rules are the state's system; Fold refuses a log of a system the engine does not know.
func (st *State) rules() Rules {
	r, _ := st.Spec.System.Rules()
	return r
}
