package domain

import (
	"encoding/json"
	"fmt"
	"strings"
)

// MaxPip is the highest pip of the double-six set.
const MaxPip = 6

// SetSize is the number of tiles in a double-six set.
const SetSize = 28

// Tile is one domino, held in canonical form (low pip first). The zero Tile is 0-0.
type Tile struct {
	lo, hi uint8
}

// NewTile returns the tile with pips a and b in either order.
func NewTile(a, b int) (Tile, error) {
	if a < 0 || a > MaxPip || b < 0 || b > MaxPip {
		return Tile{}, fmt.Errorf("%w: pips must be 0 to %d, got %d-%d", ErrBadTile, MaxPip, a, b)
	}
	if a > b {
		a, b = b, a
	}
	return Tile{lo: uint8(a), hi: uint8(b)}, nil
}

// MustTile is NewTile for constants in code and tests; it panics on a bad tile.
func MustTile(s string) Tile {
	t, err := ParseTile(s)
	if err != nil {
		panic(err)
	}
	return t
}

// ParseTile reads a tile written "a-b" in either order, such as "6-4" or "4-6".
func ParseTile(s string) (Tile, error) {
	s = strings.TrimSpace(s)
	if len(s) != 3 || s[1] != '-' || s[0] < '0' || s[0] > '0'+MaxPip || s[2] < '0' || s[2] > '0'+MaxPip {
		return Tile{}, fmt.Errorf("%w: %q is not a tile; write it as a-b with pips 0 to %d, like 4-6", ErrBadTile, Truncate(s, 16), MaxPip)
	}
	return NewTile(int(s[0]-'0'), int(s[2]-'0'))
}

// Low is the smaller pip.
func (t Tile) Low() int { return int(t.lo) }

// High is the larger pip.
func (t Tile) High() int { return int(t.hi) }

// IsDouble says whether both halves show the same pip.
func (t Tile) IsDouble() bool { return t.lo == t.hi }

// Pips is the sum of both halves.
func (t Tile) Pips() int { return int(t.lo) + int(t.hi) }

// Has says whether one half of the tile shows pip p.
func (t Tile) Has(p int) bool { return int(t.lo) == p || int(t.hi) == p }

// Other returns the pip on the half opposite a half showing p; Has(p) must hold.
func (t Tile) Other(p int) int {
	if int(t.lo) == p {
		return int(t.hi)
	}
	return int(t.lo)
}

// String is the canonical name, low pip first: "4-6".
func (t Tile) String() string {
	return string([]byte{'0' + t.lo, '-', '0' + t.hi})
}

// Index is the tile's position 0..27 in the ascending set (0-0, 0-1, ..., 6-6).
func (t Tile) Index() int {
	// Tiles with low pip l start after the rows for 0..l-1, which hold 7, 6, ... tiles.
	l := int(t.lo)
	return l*(2*MaxPip+3-l)/2 + int(t.hi) - l
}

// MarshalJSON writes the canonical name.
func (t Tile) MarshalJSON() ([]byte, error) {
	return []byte(`"` + t.String() + `"`), nil
}

// UnmarshalJSON reads "a-b" in either order.
func (t *Tile) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("%w: a tile is a string like \"4-6\"", ErrBadTile)
	}
	parsed, err := ParseTile(s)
	if err != nil {
		return err
	}
	*t = parsed
	return nil
}

// FullSet returns the 28 tiles of the double-six set in ascending order.
func FullSet() []Tile {
	set := make([]Tile, 0, SetSize)
	for lo := 0; lo <= MaxPip; lo++ {
		for hi := lo; hi <= MaxPip; hi++ {
			set = append(set, Tile{lo: uint8(lo), hi: uint8(hi)})
		}
	}
	return set
}

// PipSum adds the pips of tiles.
func PipSum(tiles []Tile) int {
	n := 0
	for _, t := range tiles {
		n += t.Pips()
	}
	return n
}

// TileNames returns the canonical names of tiles, in order.
func TileNames(tiles []Tile) []string {
	names := make([]string, len(tiles))
	for i, t := range tiles {
		names[i] = t.String()
	}
	return names
}

// Truncate cuts s to n bytes with "..." after, so a client's text quoted in an error stays short.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
