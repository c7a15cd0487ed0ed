package storetest

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/allfives/allfives/repository"
)

// testRotateRevokesTokens: a rotation of a player's key revokes the token of every seat bound
// to it, in every match, and no other: another player's seat, an anonymous one and a seat
// reserved for the player (which has none) keep theirs. A rotation refused revokes nothing.
func testRotateRevokesTokens(t *testing.T, s BindingStore) {
	ada, bob := NewPlayer(t, "Ada", Base), NewPlayer(t, "Bob", Base)
	mustCreatePlayer(t, s, ada)
	mustCreatePlayer(t, s, bob)
	f := NewBoundFixture(t, "bound", Base, 0, "", ada.ID, bob.ID)
	mustCreate(t, s, f)
	c := challengeMatch(t, s, "challenge", Base.Add(time.Second), ada.ID, bob.ID)
	fromBob := challengeMatch(t, s, "to-ada", Base.Add(2*time.Second), bob.ID, ada.ID)
	if ok, err := s.RotatePlayerKey(ctx, ada.ID, randomHash(), randomHash(), Base.Add(time.Minute)); ok || err != nil {
		t.Fatalf("a rotation from a key not Ada's: %v, %v", ok, err)
	}
	sameSeats(t, mustMatch(t, s, "bound").Record.Seats, f.Record.Seats)
	if ok, err := s.RotatePlayerKey(ctx, ada.ID, ada.KeyHash, randomHash(), Base.Add(time.Minute)); !ok || err != nil {
		t.Fatalf("rotate: %v, %v", ok, err)
	}
	revoked := repository.RevokedToken()
	want := slices.Clone(f.Record.Seats)
	want[1].TokenHash = revoked
	sameSeats(t, mustMatch(t, s, "bound").Record.Seats, want)
	got := mustMatch(t, s, "challenge").Record.Seats
	if !bytes.Equal(got[0].TokenHash, revoked) || got[1].TokenHash != nil {
		t.Fatalf("the challenge's seats after Ada's rotation: %+v (created %+v)", got, c.rec.Seats)
	}
	sameSeats(t, mustMatch(t, s, "to-ada").Record.Seats, fromBob.rec.Seats)
}
