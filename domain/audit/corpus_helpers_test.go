package audit_test

import (
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/internal/matchtest"
)

// A corpus of honest logs of every kind of match, made with the domain's own commands as the
// referee makes them: seats joined, left and reserved, clocks and autoplay, resignations,
// expiry and every kind of cancellation, in every shape of table.

// driver plays one match through the domain's commands, recording its log.
type driver struct {
	t   *testing.T
	m   *domain.Match
	hl  domain.HandLog
	log []domain.Event
	at  time.Time
}

func newDriver(t *testing.T, spec domain.MatchSpec, seed domain.Seed) *driver {
	t.Helper()
	d := &driver{t: t, at: matchtest.Start}
	events, err := domain.Start(spec, seed, d.at)
	if err != nil {
		t.Fatal(err)
	}
	if d.m, err = domain.Resume("m", seed, events); err != nil {
		t.Fatal(err)
	}
	d.hl.Record(events...)
	d.log = events
	return d
}

// step folds the events of one command, which must have been decided without error.
func (d *driver) step(events []domain.Event, err error) {
	d.t.Helper()
	if err != nil {
		d.t.Fatalf("at version %d: %v", d.m.Version(), err)
	}
	if err := d.m.ApplyAll(events); err != nil {
		d.t.Fatal(err)
	}
	d.hl.Record(events...)
	d.log = append(d.log, events...)
}

// tick moves the clock on.
func (d *driver) tick(by time.Duration) time.Time {
	d.at = d.at.Add(by)
	return d.at
}

// play moves the match on until it ends or until stop says so: a seat on autoplay (timed out
// or resigned) as AutoMove takes its move, a seat in timeouts times out, any other its first
// legal move.
func (d *driver) play(timeouts map[int]bool, stop func() bool) {
	for !d.m.Closed() && (stop == nil || !stop()) {
		seat := d.m.Turn()
		switch {
		case d.m.OnAutoplay(seat):
			d.step(d.m.Decide(seat, d.m.AutoMove(seat, d.hl, firstLegal), d.tick(time.Second)))
		case timeouts[seat]:
			d.step(d.m.DecideTimeout(d.tick(time.Minute), d.hl, firstLegal))
		default:
			d.step(d.m.Decide(seat, d.m.LegalMoves(seat)[0].Move(), d.tick(time.Second)))
		}
	}
}

// redealSeed deals no double to two seats at first, so the first hand is dealt again.
func redealSeed() domain.Seed {
	var s domain.Seed
	binary.BigEndian.PutUint64(s[:], 33)
	return s
}

func human(name string) domain.PlayerInfo { return domain.PlayerInfo{Name: name, Kind: domain.Human} }

func reserved(id, name string) domain.PlayerInfo {
	return domain.PlayerInfo{Kind: domain.Open, ReservedFor: domain.Reservation{ID: id, Name: name}}
}

// corpus is one honest log of every kind of match the rules make.
func corpus(t *testing.T) map[string][]domain.Event {
	t.Helper()
	out := map[string][]domain.Event{}
	open := domain.PlayerInfo{Kind: domain.Open}
	bot := domain.PlayerInfo{Name: "rob", Kind: domain.Bot, Bot: "greedy"}

	// Seats joined, left, reserved and bound; a clock with timeouts, autoplay and a resume; a
	// resignation among three sides, played by autoplay to the end.
	d := newDriver(t, domain.MatchSpec{Players: []domain.PlayerInfo{human("ann"), reserved("p1", "bo"), open},
		Listed: true, TurnSeconds: 20, AutoplayAfter: 2, Target: 100}, matchtest.Seed(1))
	d.step(d.m.DecideJoin(2, "cy", d.tick(time.Second)))
	d.step(d.m.DecideLeave(2, d.tick(time.Second)))
	d.step(d.m.DecideJoinAs(2, "dee", "p2", d.tick(time.Second)))
	d.step(d.m.DecideJoinAs(1, "bo", "p1", d.tick(time.Second)))
	d.play(map[int]bool{1: true}, func() bool { return d.m.OnAutoplay(1) })
	d.step(d.m.DecideResume(1, d.tick(time.Second)))
	d.step(d.m.DecideResign(2, d.tick(time.Second)))
	d.play(nil, nil)
	out["seats, clock and a resignation of three sides"] = d.log

	// Two sides, rated: a resignation ends the match at once, the other side winning.
	ann := human("ann")
	ann.Player = "p0"
	d = newDriver(t, domain.MatchSpec{Players: []domain.PlayerInfo{ann, bot}, Rated: true, TurnSeconds: 60}, redealSeed())
	d.play(nil, func() bool { return d.m.HandsPlayed() > 1 })
	d.step(d.m.DecideResign(0, d.tick(time.Second)))
	out["two sides, resigned"] = d.log

	// Partners: one resigns for the side.
	d = newDriver(t, domain.MatchSpec{Players: []domain.PlayerInfo{human("a"), human("b"), human("c"), human("d")}, Partnerships: true, Seeded: true}, matchtest.Seed(3))
	d.play(nil, func() bool { return len(d.log) > 20 })
	d.step(d.m.DecideResign(d.m.Turn(), d.tick(time.Second)))
	out["partners, resigned"] = d.log

	// Matches closed before they started: expired, declined, withdrawn, an offer not taken.
	d = newDriver(t, domain.MatchSpec{Players: []domain.PlayerInfo{human("ann"), open}}, matchtest.Seed(4))
	d.step(d.m.DecideExpire(d.tick(time.Hour)))
	out["expired"] = d.log
	d = newDriver(t, domain.MatchSpec{Players: []domain.PlayerInfo{human("ann"), reserved("p1", "bo")}}, matchtest.Seed(5))
	d.step(d.m.DecideDecline(1, d.tick(time.Second)))
	out["declined"] = d.log
	d = newDriver(t, domain.MatchSpec{Players: []domain.PlayerInfo{human("ann"), bot, reserved("p1", "bo")}}, matchtest.Seed(6))
	d.step(d.m.DecideCancel(0, d.tick(time.Second)))
	out["withdrawn"] = d.log
	d = newDriver(t, domain.MatchSpec{Players: []domain.PlayerInfo{human("ann"), reserved("", "bo"), reserved("p3", "cy")}, OfferSeconds: 60}, matchtest.Seed(7))
	d.step(d.m.DecideJoinAs(2, "cy", "p3", d.tick(time.Second)))
	d.step(d.m.DecideOfferExpired(d.tick(time.Minute)))
	out["offer expired"] = d.log

	// A tournament's cancel: of a rated match being played, which reveals its seed, and of
	// one still waiting for a seat, which deals nothing and reveals nothing.
	d = newDriver(t, domain.MatchSpec{Players: []domain.PlayerInfo{ann, bot}, Rated: true, TurnSeconds: 60, Seeded: true}, matchtest.Seed(9))
	d.play(nil, func() bool { return len(d.log) > 6 })
	d.step(d.m.DecideTournamentCancel(d.tick(time.Second)))
	out["tournament cancelled mid-play"] = d.log
	d = newDriver(t, domain.MatchSpec{Players: []domain.PlayerInfo{human("ann"), open}}, matchtest.Seed(10))
	d.step(d.m.DecideTournamentCancel(d.tick(time.Second)))
	out["tournament cancelled while waiting"] = d.log

	// An offer accepted by every seat it reserves, the anonymous one by its old name: the last
	// acceptance deals; and plain matches of every shape to the end.
	d = newDriver(t, domain.MatchSpec{Players: []domain.PlayerInfo{human("ann"), reserved("", "bo")}, OfferSeconds: 600, Target: 50}, matchtest.Seed(8))
	d.step(d.m.DecideJoin(1, "bo", d.tick(time.Second)))
	d.play(nil, nil)
	out["offer accepted"] = d.log
	for i, shape := range matchtest.Shapes {
		out["played out: "+shape.Name] = matchtest.PlayOut(t, matchtest.Spec(shape, 0), matchtest.Seed(byte(20+i)), matchtest.FirstMove, 0)
	}
	// A branch (docs/review.md, "Play on") of the first shape's match from a decision of its
	// second hand, played out: its first two hands dealt from the parent's seed, then its own.
	out["a branch played out"] = branchOf(t, out["played out: "+matchtest.Shapes[0].Name], matchtest.Seed(20), matchtest.Seed(60))
	return out
}

// branchOf is the log of a branch of finished match parent (dealt from seed) from its first
// decision in a later hand than the first, dealt from own after the shared hands, played out.
func branchOf(t *testing.T, parent []domain.Event, seed, own domain.Seed) []domain.Event {
	t.Helper()
	for step := 3; step <= len(parent); step++ {
		v, err := domain.DecisionAt(parent, step)
		if err != nil || v.HandNumber < 2 {
			continue
		}
		spec := domain.SpecOf(parent[0].Data.(domain.MatchCreated))
		spec.BranchOf = &domain.BranchOf{Match: "parent", Step: step, Hash: strings.Repeat("0", 64),
			Dealt: []domain.DealtFrom{{Hands: v.HandNumber, Seed: seed.String()}}}
		d := &driver{t: t, at: matchtest.Start}
		events, err := domain.Start(spec, own, d.at)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range parent[2 : step-1] { // after match.created and the first deal
			e.Seq = len(events) + 1
			events = append(events, e)
		}
		if d.m, err = domain.Resume("m", own, events); err != nil {
			t.Fatal(err)
		}
		d.hl.Record(events...)
		d.log = events
		d.play(nil, nil)
		return d.log
	}
	t.Fatal("the parent has no decision after its first hand")
	return nil
}
