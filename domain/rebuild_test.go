package domain

import (
	"errors"
	"testing"
)

// TestRebuiltWithoutSeedCannotDeal: a match folded for reading has no seed, so a command that
// would deal the next hand or reveal the seed fails with ErrNoSeed instead of dealing from a
// stand-in; the same log resumed with its seed plays on.
func TestRebuiltWithoutSeedCannotDeal(t *testing.T) {
	log := events(createdEvent(table{players: 2, target: 100}), dealEvent(1, deal{hands: []string{"1-2", "6-6"}, boneyard: "1-1"}))
	m, err := Rebuild("m", log)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Decide(0, Play(MustTile("1-2"), Left), testAt); !errors.Is(err, ErrNoSeed) {
		t.Fatalf("going out on a seedless match: %v, want ErrNoSeed", err)
	}
	if m.Version() != 2 {
		t.Fatalf("a refused command changed the match: version %d", m.Version())
	}
	resumed, err := Resume("m", Seed{}, log)
	if err != nil {
		t.Fatal(err)
	}
	got, err := resumed.Decide(0, Play(MustTile("1-2"), Left), testAt)
	if err != nil {
		t.Fatal(err)
	}
	thenTypes(t, got, TypeTilePlayed, TypeHandEnded, TypeHandStarted)
}

// TestDecideChangesNothing: Decide returns the events and leaves the match as it was; only
// Apply moves it on.
func TestDecideChangesNothing(t *testing.T) {
	m := given(t, createdEvent(table{players: 2, target: 100}), dealEvent(1, deal{hands: []string{"5-5 0-1", "0-2"}, boneyard: "1-1"}))
	before := m.Clone()
	got, err := m.Decide(0, Play(MustTile("5-5"), Left), testAt)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version() != before.Version() || m.Turn() != before.Turn() || m.hand.line.Len() != 0 {
		t.Fatalf("Decide changed the match: version %d, turn %d, line %d", m.Version(), m.Turn(), m.hand.line.Len())
	}
	for _, e := range got {
		if err := m.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if m.hand.line.Len() != 1 || m.Turn() != 1 {
		t.Fatalf("after Apply: line %d, turn %d", m.hand.line.Len(), m.Turn())
	}
}
