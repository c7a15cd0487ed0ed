package tournament

import (
	"cmp"
	"slices"
)

// Swiss pairs each round on the standings so far (docs/tournaments.md, "Swiss").
const Swiss System = "swiss"

func init() { register(swiss{}) }

// swiss is the Swiss system: any format, 1 to MaxRounds rounds, each paired by PairSwiss.
type swiss struct{}

func (swiss) Name() System { return Swiss }

func (swiss) Check(s Spec) error {
	if s.Rounds < 1 || s.Rounds > MaxRounds {
		return invalidf("rounds: a swiss plays 1 to %d rounds", MaxRounds)
	}
	return nil
}

func (swiss) MaxEntries() int { return MaxEntries }

func (swiss) Rounds(s Spec, _ int) int { return s.Rounds }

func (swiss) TieBreaks() []TieBreak { return StandardTieBreaks() }

// Pair is the Swiss on the standings so far: points, then the ratings at entry, with who met
// whom, the byes and the seats each entrant held in the rounds before.
func (swiss) Pair(st *State) Pairing {
	size := st.Spec.Format.TableSize()
	points := map[string]float64{}
	for _, s := range st.Standings() {
		points[s.Entrant] = s.Points
	}
	met := map[[2]string]bool{}
	byes := map[string]int{}
	seats := map[string][]int{}
	for _, r := range st.Rounds {
		for _, t := range r.Pairing.Tables {
			for i, a := range t.Seats {
				s := seats[a]
				for len(s) < size {
					s = append(s, 0)
				}
				s[i]++
				seats[a] = s
				for _, b := range t.Seats {
					met[[2]string{a, b}] = true
				}
			}
		}
		for _, b := range r.Pairing.Byes {
			byes[b]++
		}
	}
	cands := make([]Candidate, 0, len(st.Playing))
	for _, id := range st.Playing {
		e, _ := st.Entry(id)
		cands = append(cands, Candidate{ID: id, Points: points[id], Rating: e.Rating, Byes: byes[id], Seats: seats[id]})
	}
	return PairSwiss(cands, size, func(a, b string) bool { return met[[2]string{a, b}] })
}

// Candidate is an entrant as Swiss pairing sees it: its points so far, its rating (the tie
// between equal points), how many byes it had, and how often it sat in each seat.
type Candidate struct {
	ID     string
	Points float64
	Rating float64
	Byes   int
	Seats  []int
}

// pairBudget bounds the nodes one search for a pairing may visit: far more than a field of
// a few dozen needs, and a field that exceeds it falls back to fewer constraints, never hangs.
const pairBudget = 200_000

// PairSwiss pairs a Swiss round of tables of size seats (docs/tournaments.md, "Swiss"): the
// candidates ranked by points, then rating, then id; the fewest byes go to the lowest ranked
// among those with the fewest byes so far; tables filled from the top of the ranking with no
// two entrants who met (met) at one table while another pairing avoids it, searching first
// for no repeat, then one, and so on; and seats given to whoever sat in them least.
func PairSwiss(cands []Candidate, size int, met func(a, b string) bool) Pairing {
	order := slices.Clone(cands)
	slices.SortStableFunc(order, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.ID, b.ID))
	})
	nbye := len(order) % size
	byeOptions := byeChoices(order, nbye)
	for repeats := 0; repeats <= len(order); repeats++ {
		// One budget a level, shared by its bye choices: a level that exhausts it jumps to
		// allowing any repeat, which the first choices satisfy at once.
		budget := pairBudget
		for _, byes := range byeOptions {
			rest := without(order, byes)
			if tables, ok := fill(rest, size, met, repeats, &budget); ok {
				return seatTables(tables, byes)
			}
		}
		if budget < 0 {
			repeats = len(order) - 1
		}
	}
	// Unreachable in practice (repeats = len allows anything), kept so the function is total.
	byes := byeOptions[0]
	rest := without(order, byes)
	var tables [][]Candidate
	for i := 0; i+size <= len(rest); i += size {
		tables = append(tables, rest[i:i+size])
	}
	return seatTables(tables, byes)
}

// byeChoices lists the sets of nbye entrants that may sit out, best first: single byes
// tried from the bottom of the ranking among those with the fewest byes, then the others; a
// bye of several seats (tables of 3 or 4) takes the lowest ranked with the fewest byes.
func byeChoices(order []Candidate, nbye int) [][]Candidate {
	if nbye == 0 {
		return [][]Candidate{nil}
	}
	bottom := slices.Clone(order)
	slices.Reverse(bottom)
	slices.SortStableFunc(bottom, func(a, b Candidate) int { return cmp.Compare(a.Byes, b.Byes) })
	if nbye > 1 {
		return [][]Candidate{bottom[:nbye]}
	}
	out := make([][]Candidate, len(bottom))
	for i, c := range bottom {
		out[i] = []Candidate{c}
	}
	return out
}

func without(order, out []Candidate) []Candidate {
	rest := make([]Candidate, 0, len(order))
	for _, c := range order {
		if !slices.ContainsFunc(out, func(o Candidate) bool { return o.ID == c.ID }) {
			rest = append(rest, c)
		}
	}
	return rest
}

// fill seats rest (ranked) at tables of size with at most repeats pairs who met before,
// backtracking over the choices of the top free entrant's table-mates in ranking order.
func fill(rest []Candidate, size int, met func(a, b string) bool, repeats int, budget *int) ([][]Candidate, bool) {
	if len(rest) == 0 {
		return nil, true
	}
	*budget--
	if *budget < 0 {
		return nil, false
	}
	table := []Candidate{rest[0]}
	var pick func(from, left int) ([][]Candidate, bool)
	pick = func(from, left int) ([][]Candidate, bool) {
		if len(table) == size {
			others := make([]Candidate, 0, len(rest)-size)
			for _, c := range rest[1:] {
				if !slices.ContainsFunc(table, func(t Candidate) bool { return t.ID == c.ID }) {
					others = append(others, c)
				}
			}
			more, ok := fill(others, size, met, left, budget)
			if !ok {
				return nil, false
			}
			return append([][]Candidate{slices.Clone(table)}, more...), true
		}
		for i := from; i < len(rest); i++ {
			c := rest[i]
			cost := 0
			for _, t := range table {
				if met(t.ID, c.ID) {
					cost++
				}
			}
			if cost > left {
				continue
			}
			table = append(table, c)
			tables, ok := pick(i+1, left-cost)
			table = table[:len(table)-1]
			if ok {
				return tables, true
			}
			if *budget < 0 {
				return nil, false
			}
		}
		return nil, false
	}
	return pick(1, repeats)
}

// seatTables orders each table's entrants into seats: seat by seat, the entrant who sat there
// least so far (ties: the higher ranked), so that over the rounds each entrant holds each
// seat about as often.
func seatTables(tables [][]Candidate, byes []Candidate) Pairing {
	p := Pairing{Tables: make([]Table, len(tables))}
	for i, t := range tables {
		free := slices.Clone(t)
		seats := make([]string, 0, len(t))
		for s := range t {
			best := 0
			for j := 1; j < len(free); j++ {
				if seatCount(free[j], s) < seatCount(free[best], s) {
					best = j
				}
			}
			seats = append(seats, free[best].ID)
			free = slices.Delete(free, best, best+1)
		}
		p.Tables[i] = Table{Seats: seats}
	}
	for _, b := range byes {
		p.Byes = append(p.Byes, b.ID)
	}
	return p
}

func seatCount(c Candidate, seat int) int {
	if seat < len(c.Seats) {
		return c.Seats[seat]
	}
	return 0
}
