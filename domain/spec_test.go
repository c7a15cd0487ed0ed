package domain_test

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
)

// everyFieldCreated is a match.created with every field of MatchCreated and of PlayerInfo set
// (a PlayerInfo field in at least one seat): the example TestSpecOfCarriesEveryField rebuilds.
// A field added to either struct must be set here too, or that test fails.
func everyFieldCreated(seed domain.Seed) domain.MatchCreated {
	return domain.MatchCreated{
		Players: []domain.PlayerInfo{
			{Seat: 0, Name: "Ada", Kind: domain.Human, Player: "0123456789abcdef0123456789abcdef"},
			{Seat: 1, Name: "Bot", Kind: domain.Bot, Bot: "greedy"},
			{Seat: 2, Kind: domain.Open, ReservedFor: domain.Reservation{ID: "fedcba9876543210fedcba9876543210", Name: "Bo"}},
			{Seat: 3, Kind: domain.Open},
		},
		Partnerships: true, Target: 150, HandSize: 5, Rules: domain.RulesVersion,
		Commitment: seed.Commitment(), Seeded: true, Listed: true,
		TurnSeconds: 60, AutoplayAfter: 2, Rated: true, OfferSeconds: 600,
		BranchOf: &domain.BranchOf{Match: "0123456789abcdef0123456789abcdef", Step: 9, Hash: seed.Commitment(),
			Dealt: []domain.DealtFrom{{Hands: 1, Seed: seed.String()}}},
	}
}

// unsetFields names the fields of the struct v that hold their zero value in every one of vs.
func unsetFields[T any](vs ...T) []string {
	var unset []string
	typ := reflect.TypeFor[T]()
	for i := range typ.NumField() {
		set := false
		for _, v := range vs {
			set = set || !reflect.ValueOf(v).Field(i).IsZero()
		}
		if !set {
			unset = append(unset, typ.Field(i).Name)
		}
	}
	return unset
}

// TestSpecOfCarriesEveryField: Start(SpecOf(c)) opens with c again, byte for byte, for a
// match.created with every field set. The audit rebuilds every match.created this way, and a
// rematch starts from its match's spec, so a field SpecOf or Start drops (as rated once was)
// fails here instead of failing the audit of every match that carries it.
func TestSpecOfCarriesEveryField(t *testing.T) {
	seed := domain.Seed(bytes.Repeat([]byte{7}, 32))
	c := everyFieldCreated(seed)
	// given an example that sets every field (the example is checked, so a new field must be
	// added to it)
	if unset := unsetFields(c); len(unset) > 0 {
		t.Fatalf("MatchCreated fields %v are zero in the example: set them, so that this test checks they are carried", unset)
	}
	if unset := unsetFields(c.Players...); len(unset) > 0 {
		t.Fatalf("PlayerInfo fields %v are zero in every seat of the example: set them in one", unset)
	}
	// when the spec it describes is started again
	events, err := domain.Start(domain.SpecOf(c), seed, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	// then its match.created is the example, field for field and byte for byte
	got := events[0].Data.(domain.MatchCreated)
	if !reflect.DeepEqual(got, c) {
		t.Fatalf("Start(SpecOf(c)) made\n%+v\nfrom\n%+v", got, c)
	}
	want, _ := domain.EncodeData(c)
	have, _ := domain.EncodeData(got)
	if !bytes.Equal(want, have) {
		t.Fatalf("Start(SpecOf(c)) encodes\n%s\nnot\n%s", have, want)
	}
}

// TestOlderRecordsKeepTheirBytes: the fields of consent and resignation are absent from a
// match.created that does not use them, so older records encode as they were stored.
func TestOlderRecordsKeepTheirBytes(t *testing.T) {
	c := domain.MatchCreated{
		Players: []domain.PlayerInfo{{Seat: 0, Name: "Ada", Kind: domain.Human}, {Seat: 1, Kind: domain.Open}},
		Target:  250, HandSize: 7, Rules: domain.RulesVersion, Commitment: "c",
	}
	b, err := domain.EncodeData(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"players":[{"seat":0,"name":"Ada","kind":"human"},{"seat":1,"name":"","kind":"open"}],"partnerships":false,"target":250,"hand_size":7,"rules":"allfives/v1","commitment":"c","seeded":false}`
	if string(b) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", b, want)
	}
}
