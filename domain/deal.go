package domain

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// Seed is the secret a match's deals derive from (docs/rules.md, rule 12).
type Seed [32]byte

// NewSeed reads 32 bytes from r, which in production is crypto/rand.Reader.
func NewSeed(r io.Reader) (Seed, error) {
	var s Seed
	if _, err := io.ReadFull(r, s[:]); err != nil {
		return Seed{}, fmt.Errorf("draw seed: %w", err)
	}
	return s, nil
}

// ParseSeed reads 64 hex characters.
func ParseSeed(h string) (Seed, error) {
	var s Seed
	if len(h) != 64 {
		return Seed{}, fmt.Errorf("%w: a seed is 64 hex characters, got %d characters", ErrBadSeed, len(h))
	}
	if _, err := hex.Decode(s[:], []byte(h)); err != nil {
		return Seed{}, fmt.Errorf("%w: a seed is 64 hex characters", ErrBadSeed)
	}
	return s, nil
}

// String is the seed in lower-case hex.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// Commitment is hex(sha256(seed)), published when the match is created.
func (s Seed) Commitment() string {
	sum := sha256.Sum256(s[:])
	return hex.EncodeToString(sum[:])
}

// Deck returns the 28 tiles in the order dealt for hand (1-based) and attempt (0-based): sorted
// ascending by HMAC-SHA256(seed, "allfives/v1/deal/{hand}/{attempt}/{tile}").
func Deck(seed Seed, hand, attempt int) []Tile {
	type keyed struct {
		mac  [sha256.Size]byte
		tile Tile
	}
	mac := hmac.New(sha256.New, seed[:])
	prefix := []byte("allfives/v1/deal/" + strconv.Itoa(hand) + "/" + strconv.Itoa(attempt) + "/")
	keys := make([]keyed, 0, SetSize)
	msg := make([]byte, 0, len(prefix)+3)
	for _, t := range FullSet() {
		mac.Reset()
		msg = append(append(msg[:0], prefix...), t.String()...)
		mac.Write(msg)
		k := keyed{tile: t}
		mac.Sum(k.mac[:0])
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b keyed) int { return bytes.Compare(a.mac[:], b.mac[:]) })
	deck := make([]Tile, SetSize)
	for i, k := range keys {
		deck[i] = k.tile
	}
	return deck
}

// Deal is one hand's tiles: a block of the deck per seat, the rest as the boneyard.
type Deal struct {
	Hands    [][]Tile
	Boneyard []Tile
}

// DealDeck splits deck into seat blocks of handSize tiles; the rest is the boneyard.
func DealDeck(deck []Tile, players, handSize int) Deal {
	d := Deal{Hands: make([][]Tile, players)}
	for s := range players {
		d.Hands[s] = append([]Tile(nil), deck[s*handSize:(s+1)*handSize]...)
	}
	d.Boneyard = append([]Tile(nil), deck[players*handSize:]...)
	return d
}

// HighestDouble returns the seat holding the highest double and that double, or ok=false.
func (d Deal) HighestDouble() (seat int, double Tile, ok bool) {
	best := -1
	for s, hand := range d.Hands {
		for _, t := range hand {
			if t.IsDouble() && t.Low() > best {
				best, seat, double = t.Low(), s, t
			}
		}
	}
	return seat, double, best >= 0
}
