package domain

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// TestActDecidesThenApplies: Act returns what Decide would and leaves the match where
// applying those events does; a refused move leaves it untouched.
func TestActDecidesThenApplies(t *testing.T) {
	seed := Seed(bytes.Repeat([]byte{7}, 32))
	log, err := Start(MatchSpec{Players: humans(2), Seeded: true}, seed, testAt)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Resume("m", seed, log)
	if err != nil {
		t.Fatal(err)
	}
	seat := m.Turn()
	if _, err := m.Act(1-seat, m.LegalMoves(seat)[0].Move(), testAt); !errors.Is(err, ErrNotYourTurn) {
		t.Fatalf("out of turn: %v, want ErrNotYourTurn", err)
	}
	if m.Version() != len(log) {
		t.Fatalf("a refused move moved the match to version %d", m.Version())
	}
	mv := m.LegalMoves(seat)[0].Move()
	want, err := m.Decide(seat, mv, testAt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Act(seat, mv, testAt)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Act gave %v, %v; Decide gives %v", got, err, want)
	}
	folded, err := Resume("m", seed, append(log, want...))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.View(Spectator()), folded.View(Spectator())) || m.Version() != folded.Version() {
		t.Fatal("Act left the match elsewhere than applying its events does")
	}
}
