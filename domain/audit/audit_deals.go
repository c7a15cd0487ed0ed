package audit

import (
	"fmt"
	"slices"

	"github.com/allfives/allfives/domain"
)

// dealConsistent checks what the rules say of a deal without its seed: every seat holds a
// hand of the table's size, the hands and the boneyard are the 28 tiles once each, and under
// the highest-double rule the leader holds the highest double. Its errors name no tile and no
// seat's holding, since a live match's deal is secret.
func dealConsistent(d domain.HandStarted, t domain.Table) error {
	k := t.HandSize()
	if len(d.Hands) != t.Players() {
		return fmt.Errorf("%d hands dealt at a table of %d", len(d.Hands), t.Players())
	}
	var seen [domain.SetSize]bool
	count := func(tiles []domain.Tile) error {
		for _, tile := range tiles {
			if seen[tile.Index()] {
				return fmt.Errorf("a tile is dealt twice")
			}
			seen[tile.Index()] = true
		}
		return nil
	}
	for s, h := range d.Hands {
		if h == nil {
			return fmt.Errorf("seat %d's hand is hidden: a redacted log cannot be audited", s)
		}
		if len(h) != k {
			return fmt.Errorf("seat %d is dealt %d tiles, not %d", s, len(h), k)
		}
		if err := count(h); err != nil {
			return err
		}
	}
	if want := domain.SetSize - t.Players()*k; len(d.Boneyard) != want {
		return fmt.Errorf("the boneyard holds %d tiles, not %d", len(d.Boneyard), want)
	}
	if err := count(d.Boneyard); err != nil {
		return err
	}
	if d.Redeals < 0 {
		return fmt.Errorf("%d redeals", d.Redeals)
	}
	if d.Lead == domain.LeadHighestDouble {
		seat, _, ok := domain.Deal{Hands: d.Hands}.HighestDouble()
		switch {
		case !ok:
			return fmt.Errorf("no double was dealt, so the hand should have been redealt")
		case seat != d.Leader:
			return fmt.Errorf("seat %d leads, but does not hold the highest double", d.Leader)
		}
	}
	return nil
}

// isCommitment says whether c is a hex SHA-256 as Seed.Commitment writes it.
func isCommitment(c string) bool {
	if len(c) != 64 {
		return false
	}
	for _, r := range c {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}

// auditSeed checks that the seed match.ended (at index at) reveals, or a tournament's
// match.cancelled, is the one match.created committed to, and returns it.
func auditSeed(events []domain.Event, at int) (domain.Seed, Check) {
	e := events[at]
	created, ok := events[0].Data.(domain.MatchCreated)
	if !ok {
		return domain.Seed{}, failed(CheckSeed, 1, "seq 1: no match.created holds the commitment")
	}
	var revealed string
	switch d := e.Data.(type) {
	case domain.MatchEnded:
		revealed = d.Seed
	case domain.MatchCancelled:
		revealed = d.Seed
	default:
		return domain.Seed{}, failed(CheckSeed, e.Seq, fmt.Sprintf("seq %d: the payload is not a match.ended", e.Seq))
	}
	seed, err := domain.ParseSeed(revealed)
	if err != nil {
		return domain.Seed{}, failed(CheckSeed, e.Seq, fmt.Sprintf("seq %d: the revealed seed %q is not 64 hex characters", e.Seq, domain.Truncate(revealed, 70)))
	}
	if got := seed.Commitment(); got != created.Commitment {
		return domain.Seed{}, failed(CheckSeed, e.Seq, fmt.Sprintf("seq %d: sha256 of the revealed seed is %s, but match.created committed to %s", e.Seq, got, created.Commitment))
	}
	return seed, passed(CheckSeed, fmt.Sprintf("sha256 of the seed revealed at seq %d is the commitment published at seq 1", e.Seq))
}

// auditDeals re-derives every deal from the revealed seed (docs/rules.md, rule 12): the hands, the
// boneyard's order, the number of redeals and, under the highest-double rule, the leader.
func auditDeals(events []domain.Event, seed domain.Seed, seedOK bool) Check {
	if !seedOK {
		return failed(CheckDeals, 0, "not checked: the revealed seed does not match the commitment, so no deal can be re-derived")
	}
	created, _ := events[0].Data.(domain.MatchCreated)
	table, err := domain.NewTable(len(created.Players), created.Partnerships)
	if err != nil {
		return failed(CheckDeals, 1, "seq 1: "+err.Error())
	}
	hands := 0
	for _, e := range events {
		d, ok := e.Data.(domain.HandStarted)
		if !ok {
			continue
		}
		hands++
		dealer, err := domain.DealSeed(created, seed, d.Hand) // a branch's shared hands: their match's seed
		if err != nil {
			return failed(CheckDeals, 1, fmt.Sprintf("seq 1: branch_of.dealt: %v", err))
		}
		if err := rederive(d, dealer, table); err != nil {
			return failed(CheckDeals, e.Seq, fmt.Sprintf("seq %d: hand %d does not re-derive from the seed: %v", e.Seq, d.Hand, err))
		}
	}
	return passed(CheckDeals, fmt.Sprintf("all %d deals re-derive from the revealed seed", hands))
}

// rederive deals hand d.Hand from seed as docs/rules.md, rule 12 says, independently of the referee's own
// dealing code, and compares it with the recorded deal.
func rederive(d domain.HandStarted, seed domain.Seed, t domain.Table) error {
	k := t.HandSize()
	for attempt := 0; attempt < domain.MaxRedeals; attempt++ {
		deal := domain.DealDeck(domain.Deck(seed, d.Hand, attempt), t.Players(), k)
		seat, _, hasDouble := deal.HighestDouble()
		if d.Lead == domain.LeadHighestDouble && !hasDouble {
			continue // the rules redeal a hand with no double when a double must lead
		}
		switch {
		case len(d.Hands) != len(deal.Hands):
			return fmt.Errorf("%d hands recorded, the table has %d seats", len(d.Hands), len(deal.Hands))
		case d.Redeals != attempt:
			return fmt.Errorf("recorded %d redeals, the seed gives %d", d.Redeals, attempt)
		case d.Lead == domain.LeadHighestDouble && d.Leader != seat:
			return fmt.Errorf("seat %d leads, the seed deals the highest double to seat %d", d.Leader, seat)
		case !slices.Equal(d.Boneyard, deal.Boneyard):
			return fmt.Errorf("the boneyard is %v, the seed gives %v", domain.TileNames(d.Boneyard), domain.TileNames(deal.Boneyard))
		}
		for s := range deal.Hands {
			if s >= len(d.Hands) || !slices.Equal(d.Hands[s], deal.Hands[s]) {
				return fmt.Errorf("seat %d's tiles differ from the seed's %v", s, domain.TileNames(deal.Hands[s]))
			}
		}
		return nil
	}
	return fmt.Errorf("the seed deals no double in %d attempts", domain.MaxRedeals)
}
