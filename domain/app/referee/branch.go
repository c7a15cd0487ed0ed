package referee

import (
	"context"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/allfives/allfives/domain"
)

// Play on (docs/review.md, "Play on"): a branch is a new match, never rated, whose log repeats
// its parent's game up to a decision (match.created names the parent, the step and the prefix's
// head hash), with the caller in the deciding seat and bots of one strategy in the others. Its
// hands up to the one being played are dealt from the parent's revealed seed (and its own
// parents'), every later hand from the branch's own secret seed (docs/design.md, "The guarantee
// suite", I4).

// BranchRequest asks for a branch of finished match Parent before its decision Step. Bot is
// the strategy of every other seat; Key, when set, a player key that binds the caller's seat
// to its player; Name the caller's seat's name without a key.
type BranchRequest struct {
	Parent string
	Step   int
	Bot    string
	Key    string
	Name   string
}

// DefaultBranchName is the caller's seat's name in a branch asked for without a key or a name.
const DefaultBranchName = "Guest"

// Branch creates a branch of req.Parent and answers it as the caller's seat sees it, with that
// seat's token. The parent must be finished and not sealed (the seal first); the
// step a decision (domain.ErrInvalid outside the log, domain.ErrNotADecision otherwise).
func (s *MatchService) Branch(ctx context.Context, req BranchRequest) (_ Created, err error) {
	defer domain.Wrap(&err, "branch of %s", req.Parent)
	if err := s.refuseSealed(ctx, req.Parent); err != nil {
		return Created{}, err
	}
	st, err := s.StatusOf(ctx, req.Parent)
	if err != nil {
		return Created{}, err
	}
	if st != domain.StatusFinished {
		return Created{}, fmt.Errorf("%w: only a finished match is played on from", domain.ErrMatchNotFinished)
	}
	parent, err := s.store.Events(ctx, req.Parent, 0, 0)
	if err != nil {
		return Created{}, corrupt(req.Parent, err)
	}
	v, err := domain.DecisionAt(parent, req.Step)
	if err != nil {
		return Created{}, err
	}
	spec, seed, err := s.branchSpec(ctx, req, parent, v.Seat, v.HandNumber)
	if err != nil {
		return Created{}, err
	}
	events, err := branchLog(spec, seed, parent[:req.Step-1], s.clock.Now())
	if err != nil {
		return Created{}, err
	}
	return s.createBranch(ctx, spec, seed, events, v.Seat)
}

// branchSpec is the branch's match.created and its own secret seed: the parent's game
// (table, target, rules) with the caller in seat and req.Bot in the others, no clock, not
// listed, not rated, and branch_of naming the prefix's head hash and the revealed seeds that
// dealt the hands up to hand, the one being played.
func (s *MatchService) branchSpec(ctx context.Context, req BranchRequest, parent []domain.Event, seat, hand int) (domain.MatchSpec, domain.Seed, error) {
	created, ok := parent[0].Data.(domain.MatchCreated)
	ended, fin := parent[len(parent)-1].Data.(domain.MatchEnded)
	if !ok || !fin {
		return domain.MatchSpec{}, domain.Seed{}, corrupt(req.Parent, fmt.Errorf("the log is not a finished match's"))
	}
	seed, err := domain.ParseSeed(ended.Seed)
	if err != nil {
		return domain.MatchSpec{}, domain.Seed{}, corrupt(req.Parent, err)
	}
	links, err := s.store.Links(ctx, req.Parent)
	if err != nil || len(links) < req.Step-1 {
		return domain.MatchSpec{}, domain.Seed{}, corrupt(req.Parent, fmt.Errorf("the chain does not reach event %d: %v", req.Step-1, err))
	}
	entries := make([]domain.PlayerInfo, len(created.Players))
	for i := range entries {
		entries[i] = domain.PlayerInfo{Seat: i, Kind: domain.Bot, Bot: req.Bot}
	}
	entries[seat] = domain.PlayerInfo{Seat: seat, Kind: domain.Human, Name: req.Name}
	if req.Key != "" {
		entries[seat].Player = Me
	} else if entries[seat].Name == "" {
		entries[seat].Name = DefaultBranchName
	}
	bound, _, err := s.bindPlayers(ctx, entries, req.Key, false)
	if err != nil {
		return domain.MatchSpec{}, domain.Seed{}, err
	}
	players, err := s.checkPlayers(bound)
	if err != nil {
		return domain.MatchSpec{}, domain.Seed{}, err
	}
	own, _, err := s.seedFor("") // the hands after the branch's own are secret, as any match's
	if err != nil {
		return domain.MatchSpec{}, domain.Seed{}, err
	}
	spec := domain.MatchSpec{
		Players: players, Partnerships: created.Partnerships, Target: created.Target,
		BranchOf: &domain.BranchOf{Match: req.Parent, Step: req.Step, Hash: hex.EncodeToString(links[req.Step-2].Hash),
			Dealt: dealtFrom(created, seed, hand)},
	}
	return spec, own, nil
}

// dealtFrom is a branch's BranchOf.Dealt: the parent's own entries (the hands it shares with
// the matches it came from), then the parent's seed for its hands up to hand.
func dealtFrom(parent domain.MatchCreated, seed domain.Seed, hand int) []domain.DealtFrom {
	var out []domain.DealtFrom
	if parent.BranchOf != nil {
		out = append(out, parent.BranchOf.Dealt...)
	}
	return append(out, domain.DealtFrom{Hands: hand, Seed: seed.String()})
}

// branchLog is the branch's log: its match.created and first deal, then the parent's game
// events of prefix after its first deal (plays, draws, passes, deals and hands' ends; the
// events of seats and clocks stay the parent's), numbered on, each at at.
func branchLog(spec domain.MatchSpec, seed domain.Seed, prefix []domain.Event, at time.Time) ([]domain.Event, error) {
	events, err := domain.Start(spec, seed, at)
	if err != nil {
		return nil, err
	}
	dealt := false
	for _, e := range prefix {
		switch e.Type {
		case domain.TypeHandStarted:
			if !dealt {
				dealt = true // Start dealt the first hand from the same seed
				continue
			}
		case domain.TypeTilePlayed, domain.TypeTileDrawn, domain.TypeTurnPassed, domain.TypeHandEnded:
		default:
			continue
		}
		events = append(events, domain.Event{Seq: len(events) + 1, Type: e.Type, At: at, Data: e.Data})
	}
	return events, nil
}

// createBranch folds and stores the branch's log under a new id, with a token for the
// caller's seat, which is to move.
func (s *MatchService) createBranch(ctx context.Context, spec domain.MatchSpec, seed domain.Seed, events []domain.Event, seat int) (Created, error) {
	id, err := s.randomText(16, hex.EncodeToString)
	if err != nil {
		return Created{}, err
	}
	g, err := newGame(id, seed, events)
	if err != nil {
		return Created{}, fmt.Errorf("fold the branch: %w", err)
	}
	if g.match.Turn() != seat {
		return Created{}, fmt.Errorf("the branch has seat %d to move, not the deciding seat %d", g.match.Turn(), seat)
	}
	tok, hash, err := s.newSecret(32)
	if err != nil {
		return Created{}, err
	}
	rec := MatchRecord{ID: id, Seed: seed, CreatedAt: events[0].At}
	for _, p := range spec.Players {
		sr := SeatRecord{Seat: p.Seat, Name: p.Name, Kind: p.Kind, Bot: p.Bot, Player: p.Player}
		if p.Seat == seat {
			sr.TokenHash = hash
		}
		rec.Seats = append(rec.Seats, sr)
	}
	if err := s.store.Create(ctx, rec, events, g.match.Summary()); err != nil {
		return Created{}, err
	}
	fresh := &entry{keysAll: true}
	fresh.setRecord(rec)
	fresh.set(g)
	s.cache.unpin(s.cache.put(fresh))
	s.watch.wake(id)
	return Created{Match: g.match.View(domain.SeatViewer(seat)), Tokens: []SeatToken{{Seat: seat, Token: tok}}}, nil
}
