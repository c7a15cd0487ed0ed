package sqlite

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/repository/storetest"
)

// joinAppend plays seat's join on m and returns the append that stores it with its seat record.
func joinAppend(t *testing.T, rec referee.MatchRecord, m *domain.Match, seat int, name string) (referee.Append, referee.SeatRecord) {
	t.Helper()
	expected := m.Version()
	events, err := m.DecideJoin(seat, name, storetest.Base)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if err := m.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	tok := sha256.Sum256([]byte(name + rec.ID))
	sr := rec.Seats[seat]
	sr.Name, sr.Kind, sr.TokenHash = name, domain.Human, tok[:]
	return referee.Append{MatchID: rec.ID, Expected: expected, Events: events, Summary: m.Summary(), Seats: []referee.SeatRecord{sr}}, sr
}

// TestGroupCommitSeatsAndClockInOneBatch: joins (which replace a seat record and rewrite the
// seats and the status), a join that starts a clocked match (turn and deadline) and plain
// moves of other matches share one group commit, each with the read-model columns and seat
// records of its own shape.
func TestGroupCommitSeatsAndClockInOneBatch(t *testing.T) {
	s, _ := openTest(t)
	fs := created(t, s, "plain-", 4, 2)
	type joined struct {
		m    *domain.Match
		seat referee.SeatRecord
	}
	var as []referee.Append
	var js []joined
	for i := range 3 {
		rec, m := storetest.NewOpenMatch(t, s, fmt.Sprintf("open-%d", i), storetest.Base, false)
		if i == 2 { // the first join commits alone, so the batch's join starts the match
			first, _ := joinAppend(t, rec, m, 1, "bo")
			if err := s.Append(context.Background(), first); err != nil {
				t.Fatal(err)
			}
			rec.Seats[1] = first.Seats[0]
		}
		a, sr := joinAppend(t, rec, m, 2, "cy")
		as = append(as, a)
		js = append(js, joined{m, sr})
	}
	for _, f := range fs {
		as = append(as, f.Next(t))
	}
	lead := storetest.NewFixture(t, "lead", storetest.Base, 1000)
	if err := lead.Create(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	errs := batchOf(t, s, lead.Next(t), as, nil)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
	}
	for i, j := range js {
		stored, err := s.Match(context.Background(), j.m.ID())
		if err != nil || stored.SummaryErr != nil {
			t.Fatalf("%s: %v %v", j.m.ID(), err, stored.SummaryErr)
		}
		storetest.SameSummary(t, stored.Summary, j.m.Summary())
		if sr := stored.Record.Seats[2]; sr.Name != "cy" || sr.Kind != domain.Human || !bytes.Equal(sr.TokenHash, j.seat.TokenHash) || !bytes.Equal(sr.InviteHash, j.seat.InviteHash) {
			t.Fatalf("%s: seat 2 after the join: %+v", j.m.ID(), sr)
		}
		started := stored.Summary.Status == domain.StatusInProgress && stored.Summary.Deadline != nil
		if started != (i == 2) {
			t.Fatalf("%s: status %s, deadline %v", j.m.ID(), stored.Summary.Status, stored.Summary.Deadline)
		}
		rep, err := s.VerifyChain(context.Background(), j.m.ID())
		if err != nil || !rep.OK {
			t.Fatalf("%s: chain %+v, %v", j.m.ID(), rep, err)
		}
	}
	for _, f := range fs {
		sameLog(t, s, f.Record.ID, f.Events)
	}
}
