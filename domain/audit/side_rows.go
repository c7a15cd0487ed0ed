package audit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/allfives/allfives/domain"
)

// The checks of what a store keeps beside the log (docs/api-records.md, "Replay, audit and export").
const (
	CheckSeats       = "seats"
	CheckIdempotency = "idempotency"
	CheckStoredSeed  = "stored_seed"
)

// SideRows is what a store keeps of a match beside its log (its seat rows, idempotency records
// and secret seed, and the read model), as the audit judges it.
type SideRows struct {
	Summary    domain.Summary
	SummaryErr error // the read model could not be decoded
	Seats      []Seat
	// Seed is the stored secret seed. Only its hash is compared with the commitment; no check
	// says anything of the seed itself.
	Seed        domain.Seed
	Idempotency []Idempotency
}

// Seat is a stored seat row: its kind and whether it holds a token hash.
type Seat struct {
	Seat     int
	Kind     domain.PlayerKind
	HasToken bool
	// Unclaimed is a human seat of a rematch whose token its old holder has not yet claimed
	// (docs/api-players.md, "Players"): it has no token hash yet, and rightly.
	Unclaimed bool
}

// Idempotency is a stored idempotency record: the seat and move it was for and the events it
// names.
type Idempotency struct {
	Seat              int
	Fingerprint       string
	FirstSeq, LastSeq int
}

// sideRowChecks judges the side rows against the log's opening and its events.
func sideRowChecks(log []domain.Event, rows SideRows) []Check {
	created, ok := opening(log)
	if !ok {
		skip := "not checked: the log does not open with a readable match.created"
		return []Check{failed(CheckSeats, 0, skip), idempotencyCheck(log, rows.Idempotency), failed(CheckStoredSeed, 0, skip)}
	}
	return []Check{seatsCheck(seatKinds(created, log), rows.Seats), idempotencyCheck(log, rows.Idempotency), storedSeedCheck(created, rows.Seed)}
}

func opening(log []domain.Event) (domain.MatchCreated, bool) {
	if len(log) == 0 {
		return domain.MatchCreated{}, false
	}
	c, ok := log[0].Data.(domain.MatchCreated)
	return c, ok
}

// seatKinds is each seat's kind after the log: match.created's, with a joined seat human and
// a left one open again.
func seatKinds(created domain.MatchCreated, log []domain.Event) []domain.PlayerInfo {
	players := slices.Clone(created.Players)
	for _, e := range log {
		switch d := e.Data.(type) {
		case domain.SeatJoined:
			if d.Seat >= 0 && d.Seat < len(players) {
				players[d.Seat].Kind = domain.Human
			}
		case domain.SeatLeft:
			if d.Seat >= 0 && d.Seat < len(players) {
				players[d.Seat].Kind = domain.Open
			}
		}
	}
	return players
}

// seatsCheck: one seat row per player, of the kind match.created and the joins and leaves
// since give it, every human seat with a token hash (without one nobody can ever play it) and
// no bot or open seat with one.
func seatsCheck(players []domain.PlayerInfo, seats []Seat) Check {
	bySeat := make(map[int]Seat, len(seats))
	for _, s := range seats {
		bySeat[s.Seat] = s
	}
	var faults []string
	for _, p := range players {
		s, ok := bySeat[p.Seat]
		switch {
		case !ok:
			faults = append(faults, fmt.Sprintf("seat %d has no row", p.Seat))
		case s.Kind != p.Kind:
			faults = append(faults, fmt.Sprintf("seat %d is stored as %s, the log says %s", p.Seat, s.Kind, p.Kind))
		case p.Kind == domain.Human && !s.HasToken && !s.Unclaimed:
			faults = append(faults, fmt.Sprintf("seat %d is human but has no token hash, so no one can play it", p.Seat))
		case p.Kind != domain.Human && s.HasToken:
			faults = append(faults, fmt.Sprintf("seat %d is %s but has a token hash", p.Seat, p.Kind))
		}
		delete(bySeat, p.Seat)
	}
	for seat := range bySeat {
		faults = append(faults, fmt.Sprintf("seat %d has a row but no player in match.created", seat))
	}
	if len(faults) > 0 {
		return failed(CheckSeats, 0, "the stored seat rows disagree with the log: "+strings.Join(faults, "; "))
	}
	return passed(CheckSeats, fmt.Sprintf("%d seats, as the log lists them, every human seat with a token hash", len(players)))
}

// idempotencyCheck: every record names events the log holds, and its first event is a move of
// the record's seat of the kind its fingerprint says. Details name records by position, never
// by key, nor the tiles of a live match.
func idempotencyCheck(log []domain.Event, recs []Idempotency) Check {
	for i, r := range recs {
		if fault := idempotencyFault(log, r); fault != "" {
			return failed(CheckIdempotency, 0, fmt.Sprintf("idempotency record %d of %d: %s", i+1, len(recs), fault))
		}
	}
	return passed(CheckIdempotency, fmt.Sprintf("%d idempotency records, each naming a move of its seat within the log", len(recs)))
}

func idempotencyFault(log []domain.Event, r Idempotency) string {
	if r.FirstSeq < 1 || r.FirstSeq > r.LastSeq || r.LastSeq > len(log) {
		return fmt.Sprintf("it names seqs %d to %d, outside the log's 1 to %d", r.FirstSeq, r.LastSeq, len(log))
	}
	fields := strings.Fields(r.Fingerprint)
	if len(fields) < 2 || fields[0] != fmt.Sprint(r.Seat) {
		return fmt.Sprintf("its fingerprint is not a move of its seat %d", r.Seat)
	}
	e := log[r.FirstSeq-1]
	var seat int
	var action domain.Action
	switch d := e.Data.(type) {
	case domain.TilePlayed:
		seat, action = d.Seat, domain.ActionPlay
	case domain.TileDrawn:
		seat, action = d.Seat, domain.ActionDraw
	case domain.TurnPassed:
		seat, action = d.Seat, domain.ActionPass
	default:
		return fmt.Sprintf("its first event, seq %d, is %s, not a move", e.Seq, e.Type)
	}
	if seat != r.Seat || fields[1] != action.String() {
		return fmt.Sprintf("its first event, seq %d, is not the move its seat and fingerprint say", e.Seq)
	}
	return ""
}

// storedSeedCheck: sha256 of the stored seed is the commitment match.created published. A live
// match's next hands are dealt from the stored seed, so a swapped seed would deal them from
// another; the detail says only whether the two agree.
func storedSeedCheck(created domain.MatchCreated, seed domain.Seed) Check {
	if seed.Commitment() != created.Commitment {
		return failed(CheckStoredSeed, 0, "the stored seed does not hash to the commitment published in match.created: hands dealt from it would not be this match's")
	}
	return passed(CheckStoredSeed, "the stored seed hashes to the commitment published in match.created")
}
