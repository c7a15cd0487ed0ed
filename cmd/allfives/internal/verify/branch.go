package verify

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
)

// A branch's export (docs/review.md, "Play on") embeds its parent's log before the step, each
// event with its link: verify checks that chain, that it ends at the hash the branch's
// match.created names, that the parent's seed (branch_of.dealt) is the one it committed to,
// and that the branch's log repeats the parent's game event for event.

// exportBranch is an export's branch_of as verify reads it.
type exportBranch struct {
	Match  string        `json:"match"`
	Step   int           `json:"step"`
	Events []exportEvent `json:"events"`
}

// gameEvents are the events a branch repeats of its parent's log: the game's, not the seats'
// or the clock's.
var gameEvents = []domain.EventType{domain.TypeHandStarted, domain.TypeTilePlayed, domain.TypeTileDrawn, domain.TypeTurnPassed, domain.TypeHandEnded}

// branchCheck adds the check "branch" for a branch's export; nothing for any other match's
// that embeds nothing.
func branchCheck(res *Result, embedded *exportBranch, events []domain.Event, links []audit.ChainLink) {
	created, _ := events[0].Data.(domain.MatchCreated)
	b := created.BranchOf
	switch {
	case b == nil && embedded == nil:
		return
	case b == nil:
		res.add("branch", false, 1, "the export embeds a parent's log, but match.created names no parent")
		return
	case embedded == nil:
		res.add("branch", false, 1, "match.created names a branch of %s at step %d, but the export embeds no parent's log (branch_of)", b.Match, b.Step)
		return
	}
	if err := checkBranch(b, embedded, links); err != nil {
		res.add("branch", false, 1, "a branch of %s at step %d: %v", b.Match, b.Step, err)
		return
	}
	res.add("branch", true, 0, "a branch of %s at step %d: the parent's %d events embedded chain to the hash match.created names, and this log repeats their game", b.Match, b.Step, b.Step-1)
}

// checkBranch is nil when embedded is the log before b.Step of a match whose game links
// (after match.created) repeat, and whose seed b.Dealt names.
func checkBranch(b *domain.BranchOf, embedded *exportBranch, links []audit.ChainLink) error {
	if embedded.Match != b.Match || embedded.Step != b.Step || len(embedded.Events) != b.Step-1 || b.Step < 2 || len(b.Dealt) == 0 {
		return fmt.Errorf("the embedded log is of %s at step %d with %d events; match.created names step %d and %d dealt", embedded.Match, embedded.Step, len(embedded.Events), b.Step, len(b.Dealt))
	}
	var scratch Result
	parent, ok := chainLinks(&scratch, embedded.Events)
	if !ok {
		return fmt.Errorf("the embedded log's links: %v", scratch.Err())
	}
	chain := audit.VerifyLinks(parent)
	if !chain.OK {
		return fmt.Errorf("the embedded log's chain breaks at seq %d: %s", chain.FirstBadSeq, chain.Detail)
	}
	if head := hex.EncodeToString(parent[len(parent)-1].Hash); head != b.Hash {
		return fmt.Errorf("the embedded log ends at hash %s, match.created names %s", head, b.Hash)
	}
	d, err := domain.DecodeEventData(parent[0].Type, parent[0].Data)
	pc, isCreated := d.(domain.MatchCreated)
	if err != nil || !isCreated {
		return fmt.Errorf("the embedded log does not open with match.created")
	}
	seed, err := domain.ParseSeed(b.Dealt[len(b.Dealt)-1].Seed)
	if err != nil || seed.Commitment() != pc.Commitment {
		return fmt.Errorf("the parent's seed in branch_of.dealt is not the one its match.created committed to")
	}
	var inherited []domain.DealtFrom
	if pc.BranchOf != nil {
		inherited = pc.BranchOf.Dealt
	}
	if !slices.Equal(inherited, b.Dealt[:len(b.Dealt)-1]) {
		return fmt.Errorf("branch_of.dealt does not carry the parent's own")
	}
	at := 1 // the branch's link after match.created
	for _, l := range parent[1:] {
		if !slices.Contains(gameEvents, l.Type) {
			continue
		}
		if at >= len(links) || links[at].Type != l.Type || !bytes.Equal(links[at].Data, l.Data) {
			return fmt.Errorf("seq %d of this log does not repeat the parent's seq %d (%s)", at+1, l.Seq, l.Type)
		}
		at++
	}
	return nil
}
