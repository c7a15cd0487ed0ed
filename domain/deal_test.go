package domain

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
)

const vectorSeed = "1220bce908f962d172dd71edf7f3215397eaadbf54c4d03b1fc8334e91eaf12a"

func TestDealTestVector(t *testing.T) {
	seed, err := ParseSeed(vectorSeed)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := seed.Commitment(), "86cfd62e1714b92439d8cfdbd84d04f06828a16a3833352918cb61bf2ce733bb"; got != want {
		t.Errorf("commitment %s, want %s", got, want)
	}
	want := "2-3 4-4 4-5 2-4 2-5 0-0 5-5 1-2 3-6 1-5 0-1 5-6 4-6 3-3 3-5 0-3 1-1 0-4 0-2 1-3 3-4 2-6 0-6 1-6 2-2 6-6 0-5 1-4"
	if got := strings.Join(TileNames(Deck(seed, 1, 0)), " "); got != want {
		t.Fatalf("deck\n got  %s\n want %s", got, want)
	}
	evs, err := Start(MatchSpec{Players: []PlayerInfo{{Name: "a", Kind: Human}, {Name: "b", Kind: Human}}, Seeded: true}, seed, testAt)
	if err != nil {
		t.Fatal(err)
	}
	hs := evs[1].Data.(HandStarted)
	if got := strings.Join(TileNames(hs.Hands[0]), " "); got != "2-3 4-4 4-5 2-4 2-5 0-0 5-5" {
		t.Errorf("seat 0 holds %s", got)
	}
	if hs.Leader != 0 || hs.Lead != LeadHighestDouble || hs.Redeals != 0 || len(hs.Boneyard) != 14 {
		t.Errorf("hand.started %+v", hs)
	}
	m, _ := Resume("m", seed, evs)
	got, err := when(t, m, play(0, "5-5", Left))
	if err != nil {
		t.Fatal(err)
	}
	thenData(t, got, TilePlayed{Seat: 0, Tile: MustTile("5-5"), End: Left, Total: 10, Points: 10})
}

// TestDeckIsTheHMACOrder re-derives a deck with nothing but crypto/hmac, as an auditor would.
func TestDeckIsTheHMACOrder(t *testing.T) {
	seed, _ := ParseSeed(vectorSeed)
	deck := Deck(seed, 3, 2)
	for i := 1; i < len(deck); i++ {
		a, b := dealMAC(seed, 3, 2, deck[i-1]), dealMAC(seed, 3, 2, deck[i])
		if a >= b {
			t.Fatalf("deck[%d]=%s sorts after deck[%d]=%s", i-1, deck[i-1], i, deck[i])
		}
	}
	seen := map[Tile]bool{}
	for _, tl := range deck {
		seen[tl] = true
	}
	if len(seen) != SetSize {
		t.Fatalf("deck has %d distinct tiles", len(seen))
	}
}

func dealMAC(seed Seed, hand, attempt int, t Tile) string {
	mac := hmac.New(sha256.New, seed[:])
	mac.Write([]byte("allfives/v1/deal/" + strconv.Itoa(hand) + "/" + strconv.Itoa(attempt) + "/" + t.String()))
	return hex.EncodeToString(mac.Sum(nil))
}

func TestRedealWhenNoDouble(t *testing.T) {
	// Search seeds for a first deal of three players with no double; it must be redealt.
	for i := range 5000 {
		var seed Seed
		seed[0], seed[1] = byte(i), byte(i>>8)
		d := DealDeck(Deck(seed, 1, 0), 3, 5)
		if _, _, ok := d.HighestDouble(); ok {
			continue
		}
		players := []PlayerInfo{{Name: "a", Kind: Human}, {Name: "b", Kind: Human}, {Name: "c", Kind: Human}}
		evs, err := Start(MatchSpec{Players: players, Seeded: true}, seed, testAt)
		if err != nil {
			t.Fatal(err)
		}
		hs := evs[1].Data.(HandStarted)
		if hs.Redeals < 1 {
			t.Fatalf("seed %x: no double in attempt 0 but redeals = %d", seed[:2], hs.Redeals)
		}
		want := DealDeck(Deck(seed, 1, hs.Redeals), 3, 5)
		if strings.Join(TileNames(hs.Hands[1]), " ") != strings.Join(TileNames(want.Hands[1]), " ") {
			t.Fatalf("hand.started does not hold attempt %d's deal", hs.Redeals)
		}
		return
	}
	t.Fatal("no seed without a double found")
}

func TestParseTile(t *testing.T) {
	for in, want := range map[string]string{"4-6": "4-6", "6-4": "4-6", "0-0": "0-0", " 6-6 ": "6-6", "5-0": "0-5"} {
		got, err := ParseTile(in)
		if err != nil || got.String() != want {
			t.Errorf("ParseTile(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "7-1", "4_6", "46", "4-", "-4", "a-b", "4-6-1", "١-٢", "04-6"} {
		if _, err := ParseTile(in); err == nil || CodeOf(err) != CodeInvalidRequest {
			t.Errorf("ParseTile(%q) error %v, want INVALID_REQUEST", in, err)
		}
	}
	for i, tl := range FullSet() {
		if tl.Index() != i {
			t.Errorf("%s has index %d, want %d", tl, tl.Index(), i)
		}
	}
}

func TestParseSeed(t *testing.T) {
	for _, bad := range []string{"", "00", strings.Repeat("g", 64), strings.Repeat("0", 63), strings.Repeat("0", 66)} {
		if _, err := ParseSeed(bad); err == nil {
			t.Errorf("ParseSeed(%q) accepted", bad)
		}
	}
}
