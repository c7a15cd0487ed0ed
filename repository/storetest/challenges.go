package storetest

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/quota"
	"github.com/allfives/allfives/domain/app/referee"
)

// challengeCap is the cap the tests set; any positive number is counted alike.
const challengeCap = 3

// RunChallengeCaps checks the cap on waiting challenges (referee.MatchRecord.ChallengeCap):
// counted from the stored matches, sent and received apart, freed by an answer, not counting
// rematches nor matches that are no challenge, and held by creates racing on two handles of one
// database (two instances; the one store twice for a database one process owns). open returns
// two handles of a new, empty database.
func RunChallengeCaps(t *testing.T, open func(t *testing.T) (a, b BindingStore)) {
	t.Run("Counted", func(t *testing.T) {
		s, _ := open(t)
		ids := newPlayers(t, s, "Ada", "Bob", "Cy", "Dee")
		ada, bob, cy, dee := ids[0], ids[1], ids[2], ids[3]
		at := Base
		next := func() time.Time { at = at.Add(time.Second); return at }
		var first *seatedMatch
		for i := range challengeCap {
			sm, err := challengeCapped(s, fmt.Sprintf("ab%d", i), next(), ada, bob, challengeCap)
			if err != nil {
				t.Fatalf("challenge %d of Ada to Bob: %v", i, err)
			}
			if first == nil {
				first = sm
			}
		}
		// Ada has sent as many as she may, and Bob been sent as many as he may.
		refused(t, s, "ada-cy", next(), ada, cy, "player "+ada+" has 3 challenges waiting for an answer, the most one player may send")
		refused(t, s, "dee-bob", next(), dee, bob, "player "+bob+" has 3 challenges waiting for its answer, the most one player may be sent")
		// No cap, no count; a match with no reserved seat is no challenge.
		if _, err := challengeCapped(s, "uncapped", next(), cy, ada, 0); err != nil {
			t.Fatalf("a challenge without a cap: %v", err)
		}
		f := NewBoundFixture(t, "bound", next(), 0, ada, "")
		f.Record.ChallengeCap = challengeCap
		mustCreate(t, s, f)
		// A rematch's reserved seat (the referee sets no cap on it) is no challenge of the
		// cap's: Dee sends Cy as many challenges beside one as she may.
		if _, err := challengeOf(s, "rematch", next(), dee, cy, 0, "ab0"); err != nil {
			t.Fatalf("a rematch's reserved seat: %v", err)
		}
		for i := range challengeCap {
			if _, err := challengeCapped(s, fmt.Sprintf("dc%d", i), next(), dee, cy, challengeCap); err != nil {
				t.Fatalf("challenge %d of Dee to Cy, beside a rematch: %v", i, err)
			}
		}
		// Bob takes one of Ada's: it waits no more, which makes room for one more of Ada's to
		// Bob, and then none again.
		first.appendSeat(t, s, 1, "Bob", bob, next())
		if _, err := challengeCapped(s, "ab-again", next(), ada, bob, challengeCap); err != nil {
			t.Fatalf("a challenge once one was taken: %v", err)
		}
		refused(t, s, "cy-bob", next(), cy, bob, "player "+bob+" has 3 challenges waiting for its answer")
	})
	t.Run("Race", func(t *testing.T) {
		a, b := open(t)
		ids := newPlayers(t, a, "Ada", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")
		target := ids[0]
		var made atomic.Int32
		var wg sync.WaitGroup
		for i, from := range ids[1:] {
			s := []BindingStore{a, b}[i%2]
			wg.Go(func() {
				_, err := challengeCapped(s, fmt.Sprintf("race%d", i), Base.Add(time.Duration(i)*time.Second), from, target, challengeCap)
				switch {
				case err == nil:
					made.Add(1)
				case !errors.Is(err, referee.ErrTooManyChallenges):
					t.Errorf("challenge %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		if n := made.Load(); n != challengeCap {
			t.Fatalf("%d challenges to one player were stored, the cap is %d", n, challengeCap)
		}
	})
}

// challengeCapped stores the challenge id of creator to challenged, under cap.
func challengeCapped(s referee.EventStore, id string, at time.Time, creator, challenged string, cap int) (*seatedMatch, error) {
	return challengeOf(s, id, at, creator, challenged, cap, "")
}

// challengeOf is challengeCapped of a rematch of rematchOf when that is not "".
func challengeOf(s referee.EventStore, id string, at time.Time, creator, challenged string, cap int, rematchOf string) (*seatedMatch, error) {
	seed := domain.Seed(sha256.Sum256([]byte("seed/" + id)))
	spec := domain.MatchSpec{Players: []domain.PlayerInfo{{Name: "s0", Kind: domain.Human, Player: creator}, {Kind: domain.Open}}}
	events, err := domain.Start(spec, seed, at)
	if err != nil {
		return nil, err
	}
	m, err := domain.Resume(id, seed, events)
	if err != nil {
		return nil, err
	}
	tok := sha256.Sum256([]byte("t0" + id))
	rec := referee.MatchRecord{ID: id, Seed: seed, CreatedAt: at, ChallengeCap: cap, RematchOf: rematchOf, Seats: []referee.SeatRecord{
		{Seat: 0, Name: "s0", Kind: domain.Human, TokenHash: tok[:], Player: creator},
		{Seat: 1, Kind: domain.Open, Player: challenged},
	}}
	if err := s.Create(ctx, rec, events, m.Summary()); err != nil {
		return nil, err
	}
	return &seatedMatch{rec: rec, match: m}, nil
}

// refused checks that the challenge id is refused with ErrTooManyChallenges, in words that
// start with want.
func refused(t *testing.T, s referee.EventStore, id string, at time.Time, creator, challenged, want string) {
	t.Helper()
	_, err := challengeCapped(s, id, at, creator, challenged, challengeCap)
	var de *domain.Error
	if !errors.Is(err, referee.ErrTooManyChallenges) || !errors.As(err, &de) || de.Code() != quota.CodeRateLimited {
		t.Fatalf("challenge %s: %v, want ErrTooManyChallenges", id, err)
	}
	if got := err.Error(); len(got) < len(want) || got[:len(want)] != want {
		t.Fatalf("challenge %s refused as %q, want it to start %q", id, got, want)
	}
	if _, err := s.Match(ctx, id); !errors.Is(err, domain.ErrMatchNotFound) {
		t.Fatalf("the refused challenge %s was stored: %v", id, err)
	}
}
