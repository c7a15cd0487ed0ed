package storetest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
)

// BindingStore is a store of players who last beyond one match (docs/api-players.md, "Players"): the
// matches, the players, a player's matches from the seats bound to it, and rematches. Every
// store in repository/ is one.
type BindingStore interface {
	referee.EventStore
	players.Store
	referee.PlayerMatchStore
	referee.RematchStore
}

// RunBindings checks store against the contracts of seats bound to players, of a player's
// matches (newest first, keyset-paged, the status filter and turn=me) and of rematches (the
// link to the next match, set once; each seat of a rematch claimed once). open must return a
// new, empty store for each call; it is called once per subtest.
func RunBindings(t *testing.T, open func(t *testing.T) BindingStore) {
	tests := []struct {
		name string
		fn   func(*testing.T, BindingStore)
	}{
		{"BoundSeatsRoundTrip", testBoundSeats},
		{"JoinAndLeaveBind", testJoinLeaveBinds},
		{"PlayerMatchesNewestFirst", testPlayerMatchesPaging},
		{"PlayerMatchesStableCursor", testPlayerMatchesStableCursor},
		{"PlayerMatchesStatus", testPlayerMatchesStatus},
		{"PlayerMatchesTurn", testPlayerMatchesTurn},
		{"PlayerMatchesBadCursor", testPlayerMatchesBadCursor},
		{"RematchLink", testRematchLink},
		{"ClaimSeatOnce", testClaimSeatOnce},
		{"ClaimSeatRace", testClaimSeatRace},
		{"RotateRevokesTokens", testRotateRevokesTokens},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

// NewBoundFixture starts a match of len(bound) human seats named "s0", "s1"..., created at
// at, each with a token hash, seat i bound to the player with id bound[i] ("" for an
// anonymous seat) in its record and in match.created. target 0 is the table's default.
func NewBoundFixture(tb testing.TB, id string, at time.Time, target int, bound ...string) *Fixture {
	tb.Helper()
	infos := make([]domain.PlayerInfo, len(bound))
	seats := make([]referee.SeatRecord, len(bound))
	for i, p := range bound {
		name := fmt.Sprintf("s%d", i)
		token := sha256.Sum256(fmt.Appendf(nil, "token/%s/%d", id, i))
		infos[i] = domain.PlayerInfo{Seat: i, Name: name, Kind: domain.Human, Player: p}
		seats[i] = referee.SeatRecord{Seat: i, Name: name, Kind: domain.Human, TokenHash: token[:], Player: p}
	}
	seed := domain.Seed(sha256.Sum256([]byte("seed/" + id)))
	events, err := domain.Start(domain.MatchSpec{Players: infos, Target: target, Seeded: true}, seed, at)
	if err != nil {
		tb.Fatalf("start %s: %v", id, err)
	}
	m, err := domain.Resume(id, seed, events)
	if err != nil {
		tb.Fatalf("rebuild %s: %v", id, err)
	}
	return &Fixture{
		Record:  referee.MatchRecord{ID: id, Seed: seed, Seats: seats, CreatedAt: at},
		Opening: events,
		Match:   m,
		Events:  slices.Clone(events),
		rng:     rand.New(rand.NewPCG(uint64(seed[0])<<8|uint64(seed[1]), uint64(seed[2]))),
		clock:   at,
	}
}

// newPlayers stores players with the names given, created at Base, and returns their ids.
func newPlayers(t *testing.T, s BindingStore, names ...string) []string {
	t.Helper()
	ids := make([]string, len(names))
	for i, n := range names {
		rec := NewPlayer(t, n, Base)
		mustCreatePlayer(t, s, rec)
		ids[i] = rec.ID
	}
	return ids
}

// challengeMatch creates a waiting match of seat 0, human and bound to creator, and seat 1
// open and reserved for challenged (a challenge), with an invite hash.
func challengeMatch(t *testing.T, s BindingStore, id string, at time.Time, creator, challenged string) *seatedMatch {
	t.Helper()
	rec, m := createOpenSeat(t, s, id, at, domain.MatchSpec{}, "s0", creator, challenged)
	return &seatedMatch{rec: rec, match: m}
}

// createOpenSeat stores a two-seat match of spec (its players set here): seat 0 the human
// name, bound to player creator ("" for none), with a token hash; seat 1 open with an invite
// hash, reserved for player reserved ("" for anyone).
func createOpenSeat(t *testing.T, s referee.EventStore, id string, at time.Time, spec domain.MatchSpec, name, creator, reserved string) (referee.MatchRecord, *domain.Match) {
	t.Helper()
	seed := domain.Seed(sha256.Sum256([]byte("seed/" + id)))
	spec.Players = []domain.PlayerInfo{{Name: name, Kind: domain.Human, Player: creator}, {Kind: domain.Open}}
	events, err := domain.Start(spec, seed, at)
	if err != nil {
		t.Fatal(err)
	}
	m, err := domain.Resume(id, seed, events)
	if err != nil {
		t.Fatal(err)
	}
	tok, inv := sha256.Sum256([]byte("t0"+id)), sha256.Sum256([]byte("i1"+id))
	rec := referee.MatchRecord{ID: id, Seed: seed, CreatedAt: at, Seats: []referee.SeatRecord{
		{Seat: 0, Name: name, Kind: domain.Human, TokenHash: tok[:], Player: creator},
		{Seat: 1, Kind: domain.Open, InviteHash: inv[:], Player: reserved},
	}}
	if err := s.Create(ctx, rec, events, m.Summary()); err != nil {
		t.Fatal(err)
	}
	return rec, m
}

// appendSeat appends the join (player not "") or leave (player "" and name "") of seat with
// the seat record it leaves behind.
func (sm *seatedMatch) appendSeat(t *testing.T, s referee.EventStore, seat int, name, player string, at time.Time) {
	t.Helper()
	expected := sm.match.Version()
	var events []domain.Event
	var err error
	sr := sm.rec.Seats[seat]
	if name == "" {
		events, err = sm.match.DecideLeave(seat, at)
		sr.Name, sr.Kind, sr.TokenHash, sr.Player = "", domain.Open, nil, ""
	} else {
		events, err = sm.match.DecideJoinAs(seat, name, player, at)
		tok := sha256.Sum256([]byte(name + "/" + sm.rec.ID))
		sr.Name, sr.Kind, sr.TokenHash, sr.Player = name, domain.Human, tok[:], player
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if err := sm.match.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	sm.rec.Seats[seat] = sr
	a := referee.Append{MatchID: sm.rec.ID, Expected: expected, Events: events, Summary: sm.match.Summary(), Seats: []referee.SeatRecord{sr}}
	if err := s.Append(ctx, a); err != nil {
		t.Fatalf("append the seat change of seat %d: %v", seat, err)
	}
}

// sameSeats compares stored seat records with the ones created or appended: every field,
// the player included.
func sameSeats(t *testing.T, got, want []referee.SeatRecord) {
	t.Helper()
	if !slices.EqualFunc(got, want, func(a, b referee.SeatRecord) bool {
		return a.Seat == b.Seat && a.Name == b.Name && a.Kind == b.Kind && a.Bot == b.Bot && a.Player == b.Player &&
			bytes.Equal(a.TokenHash, b.TokenHash) && bytes.Equal(a.InviteHash, b.InviteHash)
	}) {
		t.Fatalf("seats\n got %+v\nwant %+v", got, want)
	}
}

// playerPage is one page of player's matches as ids, failing the test on an error.
func playerPage(t *testing.T, s BindingStore, q referee.PlayerMatchQuery) referee.PlayerMatchPage {
	t.Helper()
	page, err := s.PlayerMatches(ctx, q)
	if err != nil {
		t.Fatalf("player matches %+v: %v", q, err)
	}
	return page
}

// followPlayer pages q to its end and returns the ids listed, with the seat each was listed
// at, checking that no match is listed twice.
func followPlayer(t *testing.T, s BindingStore, q referee.PlayerMatchQuery) ([]string, map[string]int) {
	t.Helper()
	var ids []string
	seats := map[string]int{}
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatal("the cursor never ends")
		}
		page := playerPage(t, s, q)
		if q.Limit > 0 && len(page.Matches) > q.Limit {
			t.Fatalf("a page of %d, limit %d", len(page.Matches), q.Limit)
		}
		for _, pm := range page.Matches {
			if _, dup := seats[pm.ID]; dup {
				t.Fatalf("%s listed twice", pm.ID)
			}
			if pm.CreatedAt.Location() != time.UTC {
				t.Fatalf("%s created_at %v, want UTC", pm.ID, pm.CreatedAt)
			}
			ids = append(ids, pm.ID)
			seats[pm.ID] = pm.Seat
		}
		if page.NextCursor == "" {
			return ids, seats
		}
		q.Cursor = page.NextCursor
	}
}

// testBoundSeats: the player of a bound seat and of a reserved (challenge) seat come back
// with the record, beside anonymous seats; the player's matches list the match at its seat.
func testBoundSeats(t *testing.T, s BindingStore) {
	ids := newPlayers(t, s, "Ada", "Bob")
	ada, bob := ids[0], ids[1]
	f := NewBoundFixture(t, "bound", Base, 0, "", ada, "")
	mustCreate(t, s, f)
	sameSeats(t, mustMatch(t, s, "bound").Record.Seats, f.Record.Seats)
	c := challengeMatch(t, s, "challenge", Base.Add(time.Second), ada, bob)
	stored := mustMatch(t, s, "challenge")
	sameSeats(t, stored.Record.Seats, c.rec.Seats)
	if stored.Summary.Status != domain.StatusWaiting {
		t.Fatalf("the challenge is %s", stored.Summary.Status)
	}
	got, seats := followPlayer(t, s, referee.PlayerMatchQuery{Player: ada})
	if !slices.Equal(got, []string{"challenge", "bound"}) || seats["bound"] != 1 || seats["challenge"] != 0 {
		t.Fatalf("Ada's matches %v at seats %v, want [challenge bound] at 0 and 1", got, seats)
	}
	// A reserved seat is the challenged player's match too, before it is taken.
	got, seats = followPlayer(t, s, referee.PlayerMatchQuery{Player: bob})
	if !slices.Equal(got, []string{"challenge"}) || seats["challenge"] != 1 {
		t.Fatalf("Bob's matches %v at seats %v, want [challenge] at 1", got, seats)
	}
	page := playerPage(t, s, referee.PlayerMatchQuery{Player: bob})
	it := page.Matches[0]
	if !it.CreatedAt.Equal(Base.Add(time.Second)) || it.Summary.Status != domain.StatusWaiting || !slices.Equal(it.Summary.OpenSeats, []int{1}) {
		t.Fatalf("Bob's challenge as listed: %+v", it)
	}
	SameSummary(t, it.Summary, c.match.Summary())
	for _, who := range []string{"", "nobody", ada + "x"} {
		if p := playerPage(t, s, referee.PlayerMatchQuery{Player: who}); len(p.Matches) != 0 || p.NextCursor != "" {
			t.Fatalf("the matches of player %q: %+v", who, p)
		}
	}
}

// testJoinLeaveBinds: a join with a key binds the seat in the append's transaction (the
// match joins the player's list, at its created_at place); a leave unbinds it.
func testJoinLeaveBinds(t *testing.T, s BindingStore) {
	ids := newPlayers(t, s, "Ada", "Bob", "Cy")
	ada, bob, cy := ids[0], ids[1], ids[2]
	older := NewBoundFixture(t, "older", Base, 0, bob, "")
	mustCreate(t, s, older)
	sm := newSeatedMatch(t, s, "open", Base.Add(time.Minute), true)
	newer := NewBoundFixture(t, "newer", Base.Add(2*time.Minute), 0, "", bob)
	mustCreate(t, s, newer)
	sm.appendSeat(t, s, 1, "Bob", bob, Base.Add(3*time.Minute))
	sameSeats(t, mustMatch(t, s, "open").Record.Seats, sm.rec.Seats)
	// The join was after "newer" was created; the list is by creation, not by join.
	got, seats := followPlayer(t, s, referee.PlayerMatchQuery{Player: bob, Limit: 1})
	if !slices.Equal(got, []string{"newer", "open", "older"}) || seats["open"] != 1 {
		t.Fatalf("Bob's matches after his join %v (seats %v)", got, seats)
	}
	// A leave unbinds the seat: the match leaves Bob's list; the next to join binds it.
	sm.appendSeat(t, s, 1, "", "", Base.Add(4*time.Minute))
	sameSeats(t, mustMatch(t, s, "open").Record.Seats, sm.rec.Seats)
	if got, _ := followPlayer(t, s, referee.PlayerMatchQuery{Player: bob}); !slices.Equal(got, []string{"newer", "older"}) {
		t.Fatalf("Bob's matches after his leave %v", got)
	}
	sm.appendSeat(t, s, 1, "Ada", ada, Base.Add(5*time.Minute))
	sm.appendSeat(t, s, 2, "Cy", cy, Base.Add(6*time.Minute)) // the last join starts the match
	stored := mustMatch(t, s, "open")
	sameSeats(t, stored.Record.Seats, sm.rec.Seats)
	if stored.Summary.Status != domain.StatusInProgress {
		t.Fatalf("after the last join: %s", stored.Summary.Status)
	}
	for who, seat := range map[string]int{ada: 1, cy: 2} {
		for _, st := range []domain.Status{"", domain.StatusInProgress} {
			page := playerPage(t, s, referee.PlayerMatchQuery{Player: who, Status: st})
			if len(page.Matches) != 1 || page.Matches[0].ID != "open" || page.Matches[0].Seat != seat {
				t.Fatalf("the matches (status %q) of the player at seat %d: %+v", st, seat, page.Matches)
			}
			SameSummary(t, page.Matches[0].Summary, sm.match.Summary())
		}
		// The join that started the match moved it out of the player's waiting matches.
		if page := playerPage(t, s, referee.PlayerMatchQuery{Player: who, Status: domain.StatusWaiting}); len(page.Matches) != 0 {
			t.Fatalf("waiting matches of the player at seat %d: %+v", seat, page.Matches)
		}
	}
	if page := playerPage(t, s, referee.PlayerMatchQuery{Player: bob, Status: domain.StatusInProgress}); len(page.Matches) != 2 {
		t.Fatalf("Bob's matches in progress: %+v", page.Matches)
	}
}

// testPlayerMatchesPaging: a player's matches, and only theirs, newest first by creation,
// ties broken by id descending, paged with every limit without a repeat or a gap.
func testPlayerMatchesPaging(t *testing.T, s BindingStore) {
	ids := newPlayers(t, s, "Ada", "Bob")
	ada, bob := ids[0], ids[1]
	var want []*Fixture
	for i := range 23 {
		// Three to a second, so that created_at ties are common; ids out of creation order.
		id := fmt.Sprintf("pm-%02d", (i*7)%23)
		at := Base.Add(time.Duration(i/3) * time.Second)
		seats := []string{ada, ""}
		switch {
		case i%4 == 1:
			seats = []string{"", ada}
		case i%5 == 2:
			seats = []string{"", bob} // not Ada's
		case i%6 == 3:
			seats = []string{bob, ada, ""}
		}
		f := NewBoundFixture(t, id, at, 0, seats...)
		mustCreate(t, s, f)
		if slices.Contains(seats, ada) {
			want = append(want, f)
		}
	}
	mustCreate(t, s, NewFixture(t, "anonymous", Base.Add(time.Hour), 0)) // no one's
	exp := newestFirst(want, func(*Fixture) bool { return true })
	for _, limit := range []int{0, 1, 2, 5, 7, 100} {
		got, seats := followPlayer(t, s, referee.PlayerMatchQuery{Player: ada, Limit: limit})
		if !slices.Equal(got, exp) {
			t.Fatalf("limit %d: %v, want %v", limit, got, exp)
		}
		for _, f := range want {
			if seat := seats[f.Record.ID]; f.Record.Seats[seat].Player != ada {
				t.Fatalf("%s listed at seat %d, which is not Ada's", f.Record.ID, seat)
			}
		}
	}
	// A full last page has no cursor past it; the page after a cursor is the rest.
	if p := playerPage(t, s, referee.PlayerMatchQuery{Player: ada, Limit: len(exp)}); p.NextCursor != "" || len(p.Matches) != len(exp) {
		t.Fatalf("a page of exactly every match: %d matches, cursor %q", len(p.Matches), p.NextCursor)
	}
	first := playerPage(t, s, referee.PlayerMatchQuery{Player: ada, Limit: 4})
	rest, _ := followPlayer(t, s, referee.PlayerMatchQuery{Player: ada, Cursor: first.NextCursor})
	if !slices.Equal(rest, exp[4:]) {
		t.Fatalf("after the first page: %v, want %v", rest, exp[4:])
	}
	// The default page is the history's.
	if p := playerPage(t, s, referee.PlayerMatchQuery{Player: ada}); len(p.Matches) != len(exp) {
		t.Fatalf("default limit: %d of %d", len(p.Matches), len(exp))
	}
}

// testPlayerMatchesStableCursor: a cursor names a place in the order, not an offset: matches
// created after it was given do not move the pages it leads to.
func testPlayerMatchesStableCursor(t *testing.T, s BindingStore) {
	ada := newPlayers(t, s, "Ada")[0]
	var fs []*Fixture
	for i := range 10 {
		f := NewBoundFixture(t, fmt.Sprintf("st-%d", i), Base.Add(time.Duration(i)*time.Second), 0, ada, "")
		mustCreate(t, s, f)
		fs = append(fs, f)
	}
	first := playerPage(t, s, referee.PlayerMatchQuery{Player: ada, Limit: 3})
	q := referee.PlayerMatchQuery{Player: ada, Limit: 3, Cursor: first.NextCursor}
	before := playerPage(t, s, q)
	for i := range 3 {
		mustCreate(t, s, NewBoundFixture(t, fmt.Sprintf("late-%d", i), Base.Add(time.Hour), 0, "", ada))
	}
	after := playerPage(t, s, q)
	ids := func(p referee.PlayerMatchPage) []string {
		var out []string
		for _, m := range p.Matches {
			out = append(out, m.ID)
		}
		return out
	}
	if !slices.Equal(ids(before), ids(after)) || before.NextCursor != after.NextCursor {
		t.Fatalf("the page after a cursor moved: %v then %v", ids(before), ids(after))
	}
	if want := newestFirst(fs, func(*Fixture) bool { return true })[3:6]; !slices.Equal(ids(after), want) {
		t.Fatalf("second page %v, want %v", ids(after), want)
	}
	if got := ids(playerPage(t, s, referee.PlayerMatchQuery{Player: ada, Limit: 3})); !slices.Equal(got, []string{"late-2", "late-1", "late-0"}) {
		t.Fatalf("first page after the late creates: %v", got)
	}
}

// testPlayerMatchesStatus: the status filter keeps the player's matches of that status, as
// appends change it, in the same order and with the same paging.
func testPlayerMatchesStatus(t *testing.T, s BindingStore) {
	PlayerStatuses(t, s)(t)
}

// PlayerStatuses stores matches of players "Ada" and "Bob" in every status but expired (a
// match played to its end, matches in progress, challenges waiting) and returns the check
// that the status filter lists each status's matches, newest first, whatever the page size:
// the conformance case, and a migration's test of what a store kept before it.
func PlayerStatuses(t *testing.T, s BindingStore) func(t *testing.T) {
	ids := newPlayers(t, s, "Ada", "Bob")
	ada, bob := ids[0], ids[1]
	status := map[string]domain.Status{}
	for i := range 9 {
		id := fmt.Sprintf("st-%d", i)
		at := Base.Add(time.Duration(i) * time.Second)
		switch i % 3 {
		case 0: // played to its end
			f := NewBoundFixture(t, id, at, 5, ada, "")
			mustCreate(t, s, f)
			f.PlayToEnd(t, s, 500)
			if !f.Match.Finished() {
				t.Fatalf("%s did not finish", id)
			}
		case 1: // in progress, a few moves in
			f := NewBoundFixture(t, id, at, 0, "", ada)
			mustCreate(t, s, f)
			for range 3 {
				if err := s.Append(ctx, f.Next(t)); err != nil {
					t.Fatal(err)
				}
			}
		case 2: // a challenge Ada made, waiting for Bob
			challengeMatch(t, s, id, at, ada, bob)
		}
		status[id] = mustMatch(t, s, id).Summary.Status
	}
	return func(t *testing.T) {
		t.Helper()
		for _, st := range []domain.Status{domain.StatusWaiting, domain.StatusInProgress, domain.StatusFinished, domain.StatusExpired} {
			var want []string
			for i := 8; i >= 0; i-- {
				if id := fmt.Sprintf("st-%d", i); status[id] == st {
					want = append(want, id)
				}
			}
			for _, limit := range []int{1, 2, 0} {
				got, _ := followPlayer(t, s, referee.PlayerMatchQuery{Player: ada, Status: st, Limit: limit})
				if !slices.Equal(got, want) {
					t.Fatalf("status %s, limit %d: %v, want %v", st, limit, got, want)
				}
			}
		}
		if got, _ := followPlayer(t, s, referee.PlayerMatchQuery{Player: bob, Status: domain.StatusWaiting}); len(got) != 3 {
			t.Fatalf("Bob's waiting challenges: %v", got)
		}
		if got, _ := followPlayer(t, s, referee.PlayerMatchQuery{Player: bob, Status: domain.StatusInProgress}); len(got) != 0 {
			t.Fatalf("Bob's matches in progress: %v", got)
		}
		if got, _ := followPlayer(t, s, referee.PlayerMatchQuery{Player: ada, Turn: true}); len(got) > 3 {
			t.Fatalf("Ada's turns: %v, among 3 matches in progress", got)
		}
	}
}

// testPlayerMatchesTurn: turn keeps the player's matches in progress where the seat to act
// is the player's, following the turn as moves are appended; never a finished or waiting
// match, nor another player's turn.
func testPlayerMatchesTurn(t *testing.T, s BindingStore) {
	ids := newPlayers(t, s, "Ada", "Bob")
	ada, bob := ids[0], ids[1]
	var live []*Fixture
	for i := range 8 {
		f := NewBoundFixture(t, fmt.Sprintf("tn-%d", i), Base.Add(time.Duration(i)*time.Second), 0, ada, bob)
		if i%2 == 1 {
			f = NewBoundFixture(t, fmt.Sprintf("tn-%d", i), Base.Add(time.Duration(i)*time.Second), 0, bob, ada)
		}
		mustCreate(t, s, f)
		live = append(live, f)
	}
	done := NewBoundFixture(t, "tn-done", Base.Add(time.Minute), 5, ada, bob)
	mustCreate(t, s, done)
	done.PlayToEnd(t, s, 500)
	challengeMatch(t, s, "tn-waiting", Base.Add(2*time.Minute), ada, bob)
	check := func(who string) {
		t.Helper()
		var want []string
		for i := len(live) - 1; i >= 0; i-- {
			f := live[i]
			seat := slices.IndexFunc(f.Record.Seats, func(sr referee.SeatRecord) bool { return sr.Player == who })
			if !f.Match.Finished() && f.Match.Turn() == seat {
				want = append(want, f.Record.ID)
			}
		}
		for _, limit := range []int{1, 3, 0} {
			got, _ := followPlayer(t, s, referee.PlayerMatchQuery{Player: who, Turn: true, Limit: limit})
			if !slices.Equal(got, want) {
				t.Fatalf("turn of %s, limit %d: %v, want %v", who, limit, got, want)
			}
		}
		for _, pm := range playerPage(t, s, referee.PlayerMatchQuery{Player: who, Turn: true, Limit: 100}).Matches {
			if pm.Summary.Turn == nil || *pm.Summary.Turn != pm.Seat || pm.Summary.Status != domain.StatusInProgress {
				t.Fatalf("%s listed at %s's turn: seat %d, %+v", pm.ID, who, pm.Seat, pm.Summary)
			}
		}
	}
	check(ada)
	check(bob)
	// Moves pass the turn: the lists follow.
	for i, f := range live {
		for range i % 3 {
			if err := s.Append(ctx, f.Next(t)); err != nil {
				t.Fatal(err)
			}
		}
	}
	check(ada)
	check(bob)
	// With a status, turn still keeps only the matches in progress.
	if got, _ := followPlayer(t, s, referee.PlayerMatchQuery{Player: ada, Turn: true, Status: domain.StatusFinished}); len(got) != 0 {
		t.Fatalf("finished matches at Ada's turn: %v", got)
	}
}

// testPlayerMatchesBadCursor: a cursor that is not one the store gave is ErrInvalid.
func testPlayerMatchesBadCursor(t *testing.T, s BindingStore) {
	ada := newPlayers(t, s, "Ada")[0]
	mustCreate(t, s, NewBoundFixture(t, "bc", Base, 0, ada, ""))
	enc := base64.RawURLEncoding.EncodeToString
	for _, c := range []string{"!!!", "not a cursor", enc([]byte("garbage")), enc([]byte("v1|yesterday|bc")), enc([]byte("v9|2025-01-01T00:00:00.000000000Z|x"))} {
		for _, turn := range []bool{false, true} {
			if _, err := s.PlayerMatches(ctx, referee.PlayerMatchQuery{Player: ada, Cursor: c, Turn: turn}); !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("cursor %q: got %v, want ErrInvalid", c, err)
			}
		}
	}
}

// testRematchLink: a rematch is created with RematchOf, which comes back with its record;
// LinkRematch names it on the finished match (its record, its history item, its place in
// the player's matches) once: a second link leaves the first. An unknown match is
// ErrMatchNotFound.
func testRematchLink(t *testing.T, s BindingStore) {
	ada := newPlayers(t, s, "Ada")[0]
	old := NewBoundFixture(t, "first", Base, 5, ada, "")
	mustCreate(t, s, old)
	old.PlayToEnd(t, s, 500)
	if got := mustMatch(t, s, "first").Record.NextMatchID; got != "" {
		t.Fatalf("a finished match with no rematch names %q", got)
	}
	next := NewBoundFixture(t, "second", Base.Add(time.Hour), 5, ada, "")
	next.Record.RematchOf = "first"
	for i := range next.Record.Seats {
		next.Record.Seats[i].TokenHash = nil // claimed by each seat's holder (ClaimSeat)
	}
	mustCreate(t, s, next)
	rec := mustMatch(t, s, "second").Record
	if rec.RematchOf != "first" || rec.NextMatchID != "" {
		t.Fatalf("the rematch's record: rematch of %q, next %q", rec.RematchOf, rec.NextMatchID)
	}
	sameSeats(t, rec.Seats, next.Record.Seats)
	if err := s.LinkRematch(ctx, "first", "second"); err != nil {
		t.Fatal(err)
	}
	if err := s.LinkRematch(ctx, "first", "third"); err != nil {
		t.Fatalf("a second link: %v, want nil (and the first kept)", err)
	}
	if got := mustMatch(t, s, "first").Record.NextMatchID; got != "second" {
		t.Fatalf("next match %q, want second", got)
	}
	hist, err := s.History(ctx, referee.HistoryQuery{})
	if err != nil {
		t.Fatal(err)
	}
	nexts := map[string]string{}
	for _, it := range hist.Matches {
		nexts[it.ID] = it.NextMatchID
	}
	if nexts["first"] != "second" || nexts["second"] != "" {
		t.Fatalf("history's next matches %v", nexts)
	}
	page := playerPage(t, s, referee.PlayerMatchQuery{Player: ada})
	if len(page.Matches) != 2 || page.Matches[0].ID != "second" || page.Matches[0].NextMatchID != "" || page.Matches[1].NextMatchID != "second" {
		t.Fatalf("Ada's matches %+v", page.Matches)
	}
	if err := s.LinkRematch(ctx, "nope", "x"); !errors.Is(err, domain.ErrMatchNotFound) {
		t.Fatalf("linking an unknown match: %v, want ErrMatchNotFound", err)
	}
}

// rematchOf creates a rematch of two human seats (seat 1 bound to player) and a bot, none
// of its human seats claimed yet.
func rematchOf(t *testing.T, s BindingStore, id, player string) *Fixture {
	t.Helper()
	f := NewBoundFixture(t, id, Base, 0, "", player, "")
	f.Record.RematchOf = "old-" + id
	f.Record.Seats[2] = referee.SeatRecord{Seat: 2, Name: "s2", Kind: domain.Bot, Bot: "random"}
	f.Record.Seats[0].TokenHash, f.Record.Seats[1].TokenHash = nil, nil
	mustCreate(t, s, f)
	return f
}

// testClaimSeatOnce: a human seat of a rematch without a token takes the first claim's hash
// and refuses every later claim, which changes nothing; a bot seat, an unknown seat or match
// is refused, not an error.
func testClaimSeatOnce(t *testing.T, s BindingStore) {
	ada := newPlayers(t, s, "Ada")[0]
	f := rematchOf(t, s, "claim", ada)
	first, second := sha256.Sum256([]byte("first")), sha256.Sum256([]byte("second"))
	if ok, err := s.ClaimSeat(ctx, "claim", 1, first[:]); !ok || err != nil {
		t.Fatalf("the first claim: %v %v", ok, err)
	}
	if ok, err := s.ClaimSeat(ctx, "claim", 1, second[:]); ok || err != nil {
		t.Fatalf("a second claim: %v %v, want false", ok, err)
	}
	want := slices.Clone(f.Record.Seats)
	want[1].TokenHash = first[:]
	sameSeats(t, mustMatch(t, s, "claim").Record.Seats, want)
	for _, c := range []struct {
		id   string
		seat int
	}{{"claim", 2}, {"claim", 7}, {"nope", 0}} {
		if ok, err := s.ClaimSeat(ctx, c.id, c.seat, second[:]); ok || err != nil {
			t.Fatalf("claim seat %d of %s: %v %v, want false", c.seat, c.id, ok, err)
		}
	}
	// The other human seat is still to claim, and the player still holds seat 1.
	if ok, err := s.ClaimSeat(ctx, "claim", 0, second[:]); !ok || err != nil {
		t.Fatalf("the other seat's claim: %v %v", ok, err)
	}
	want[0].TokenHash = second[:]
	sameSeats(t, mustMatch(t, s, "claim").Record.Seats, want)
	if _, seats := followPlayer(t, s, referee.PlayerMatchQuery{Player: ada}); seats["claim"] != 1 {
		t.Fatalf("Ada's seat of the rematch: %v", seats)
	}
}

// testClaimSeatRace: of claims racing for one seat, exactly one wins, and its hash is kept.
func testClaimSeatRace(t *testing.T, s BindingStore) {
	rematchOf(t, s, "race", newPlayers(t, s, "Ada")[0])
	const n = 8
	won := make([]bool, n)
	errs := make([]error, n)
	hashes := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		h := sha256.Sum256(fmt.Appendf(nil, "claim %d", i))
		hashes[i] = h[:]
		wg.Go(func() { won[i], errs[i] = s.ClaimSeat(ctx, "race", 0, hashes[i]) })
	}
	wg.Wait()
	winner := -1
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("claim %d: %v", i, errs[i])
		}
		if won[i] {
			if winner >= 0 {
				t.Fatalf("claims %d and %d both won", winner, i)
			}
			winner = i
		}
	}
	if winner < 0 {
		t.Fatal("no claim won")
	}
	if got := mustMatch(t, s, "race").Record.Seats[0].TokenHash; !bytes.Equal(got, hashes[winner]) {
		t.Fatal("the stored token hash is not the winner's")
	}
}
