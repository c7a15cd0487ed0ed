package guarantees

import (
	"context"
	"net/http"
	"time"

	"github.com/allfives/allfives/api"
)

// Fixed seeds deal the matches that may choose one, so that a failure reproduces.
const (
	seedA = "5353535353535353535353535353535353535353535353535353535353535353"
	seedB = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	seedC = "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
)

// add records k among the suite's kinds and answers it.
func (s *suite) add(k *kind) *kind {
	s.kinds = append(s.kinds, k)
	s.truth.forget()
	return k
}

// buildMatches makes the kinds of match docs/design.md ("The guarantee suite") lists outside
// tournaments. The rematch offer that expires comes first: the clock moves past its time before
// any match with a clock exists, so that nothing else times out.
func (s *suite) buildMatches() {
	s.t.Helper()
	target := func(n int) *int { return &n }
	anon := s.create(api.CreateMatchRequest{Target: target(15), Seed: seedA, Players: []api.PlayerRequest{human("Ann"), human("Ben")}}, cred{})
	reviewed := s.add(newKind("reviewed", anon.Match.ID))
	seatsOf(reviewed, anon, nil)
	s.playOut(reviewed)
	s.expiredOffer(reviewed)
	s.review(reviewed)

	live := s.create(api.CreateMatchRequest{Seed: seedB, Players: []api.PlayerRequest{human("Ann"), human("Ben")}}, cred{})
	k := s.add(newKind("anonymous", live.Match.ID))
	seatsOf(k, live, nil)
	s.steps(k, 6)

	bots := s.create(api.CreateMatchRequest{Target: target(50), Players: []api.PlayerRequest{bot("Rand", "random"), bot("Greed", "greedy"), bot("Rand Two", "random")}}, cred{})
	s.add(newKind("bots", bots.Match.ID))
	s.waitFor("the bots' match ends", func() bool { return s.truth.of(bots.Match.ID).status == "finished" })

	s.rated()
	s.challenges()
	s.resigned()
}

// expiredOffer: seat 0 of the finished k offers a rematch, which the clock lets expire.
func (s *suite) expiredOffer(from *kind) {
	s.t.Helper()
	var offer api.RematchResponse
	c, _ := holderCred(from, 0)
	s.must(http.StatusOK, request{method: http.MethodPost, path: matchPath(from.match, "/rematch"), cred: c}, &offer)
	k := s.add(newKind("rematch expired", offer.Match.ID))
	k.seats[0] = newHolder(*offer.Token, nil)
	k.reserved = 1
	k.reservedFor = cred{role: roleOtherSeat, secret: from.seats[1].token}
	s.clock.Advance(11 * time.Minute) // past serve's rematch TTL
	if _, err := s.srv.Matches.Sweep(context.Background()); err != nil {
		s.t.Fatal(err)
	}
	s.waitFor("the offer expires", func() bool { return s.truth.of(k.match).status == "cancelled" })
}

// review asks for k's review and waits for it.
func (s *suite) review(k *kind) {
	s.t.Helper()
	c, _ := holderCred(k, 0)
	s.do(request{method: http.MethodPost, path: matchPath(k.match, "/review"), cred: c, kind: k})
	s.waitFor("the review is done", func() bool {
		return s.do(request{method: http.MethodGet, path: matchPath(k.match, "/review"), kind: k}).status == http.StatusOK
	})
}

// rated: Ada challenges Bea to a rated match they play out, then Ada offers a rematch that
// Bea accepts, which they play on.
func (s *suite) rated() {
	s.t.Helper()
	ada, bea := s.people.get("Ada"), s.people.get("Bea")
	target := 20
	out := s.create(api.CreateMatchRequest{Rated: true, Target: &target, Players: []api.PlayerRequest{me, challenge(bea)}}, ada.asKey(roleOwnKey))
	k := s.add(newKind("rated", out.Match.ID))
	seatsOf(k, out, map[int]*person{0: ada})
	s.join(k, 1, api.JoinRequest{}, bea)
	s.playOut(k)

	var offer, accepted api.RematchResponse
	s.must(http.StatusOK, request{method: http.MethodPost, path: matchPath(k.match, "/rematch"), cred: ada.asKey(roleOwnKey)}, &offer)
	s.must(http.StatusOK, request{method: http.MethodPost, path: matchPath(k.match, "/rematch"), cred: bea.asKey(roleOwnKey)}, &accepted)
	r := s.add(newKind("rematch accepted", offer.Match.ID))
	r.seats[0], r.seats[1] = newHolder(*offer.Token, ada), newHolder(*accepted.Token, bea)
	s.steps(r, 4)
}

// challenges: Cal challenges Rho (accepted, played on; then Rho rotates its key, which
// gives the suite its rotated key), Eve (who declines) and Fay (withdrawn by Cal).
func (s *suite) challenges() {
	s.t.Helper()
	cal, rho := s.people.get("Cal"), s.people.get("Rho")
	out := s.create(api.CreateMatchRequest{Players: []api.PlayerRequest{me, challenge(rho)}}, cal.asKey(roleOwnKey))
	k := s.add(newKind("challenge", out.Match.ID))
	seatsOf(k, out, map[int]*person{0: cal})
	s.join(k, 1, api.JoinRequest{}, rho)
	s.steps(k, 5)
	s.rotated = s.people.rotate(rho)

	for _, c := range []struct{ kind, name string }{{"declined", "Eve"}, {"withdrawn", "Fay"}} {
		p := s.people.get(c.name)
		out := s.create(api.CreateMatchRequest{Players: []api.PlayerRequest{me, challenge(p)}}, cal.asKey(roleOwnKey))
		k := s.add(newKind(c.kind, out.Match.ID))
		seatsOf(k, out, map[int]*person{0: cal})
		k.reserved, k.reservedFor = 1, p.asKey(roleOtherSeat)
		k.seats[1] = holder{who: p} // the reserved player: "another seat"
		if c.kind == "declined" {
			s.must(http.StatusOK, request{method: http.MethodPost, path: matchPath(k.match, "/seats/1/decline"), cred: p.asKey(roleOwnKey)}, nil)
		} else {
			s.must(http.StatusOK, request{method: http.MethodPost, path: matchPath(k.match, "/cancel"), cred: cal.asKey(roleOwnKey)}, nil)
		}
	}
}

// resigned: two anonymous sides, one resigns (then the winner offers a rematch, left
// standing); three, one resigns and the others play on.
func (s *suite) resigned() {
	s.t.Helper()
	two := s.create(api.CreateMatchRequest{Seed: seedC, Players: []api.PlayerRequest{human("Gil"), human("Hana")}}, cred{})
	k := s.add(newKind("resigned 2p", two.Match.ID))
	seatsOf(k, two, nil)
	s.steps(k, 3)
	s.resign(k, 1)

	var offer api.RematchResponse
	s.must(http.StatusOK, request{method: http.MethodPost, path: matchPath(k.match, "/rematch"), cred: cred{role: roleOwnToken, secret: k.seats[0].token}}, &offer)
	o := s.add(newKind("rematch offered", offer.Match.ID))
	o.seats[0] = newHolder(*offer.Token, nil)
	o.reserved, o.reservedFor = 1, cred{role: roleOtherSeat, secret: k.seats[1].token}

	three := s.create(api.CreateMatchRequest{Players: []api.PlayerRequest{human("Ivo"), human("Jan"), human("Kai")}}, cred{})
	t := s.add(newKind("resigned 3p", three.Match.ID))
	seatsOf(t, three, nil)
	s.steps(t, 2)
	s.resign(t, 0)
	s.steps(t, 4)
}

// waitFor polls ok, reading the store afresh each time, until it holds.
func (s *suite) waitFor(what string, ok func() bool) {
	s.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		s.truth.forget()
		if ok() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("waited two minutes, and still not: %s", what)
}
