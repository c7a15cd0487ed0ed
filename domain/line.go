package domain

// Laid is a tile as it lies in the line, read left to right: Left touches the tile before it.
type Laid struct {
	Left, Right int
}

// String is the tile as it lies: "6-2" has 6 on the left.
func (l Laid) String() string {
	return string([]byte{'0' + byte(l.Left), '-', '0' + byte(l.Right)})
}

// IsDouble says whether the tile is a double (laid crosswise).
func (l Laid) IsDouble() bool { return l.Left == l.Right }

// OpenEnd is one end of the line: its pip and whether the tile there is a double.
type OpenEnd struct {
	Pip    int
	Double bool
}

// Value is what the end counts: its pip, or twice it for a double laid crosswise.
func (e OpenEnd) Value() int {
	if e.Double {
		return 2 * e.Pip
	}
	return e.Pip
}

// Line is the chain of played tiles. It always has exactly two ends (no spinner).
type Line struct {
	tiles []Laid
}

// Len is the number of tiles in the line.
func (l Line) Len() int { return len(l.tiles) }

// Tiles returns a copy of the line, left to right, each tile oriented as it lies.
func (l Line) Tiles() []Laid { return append([]Laid(nil), l.tiles...) }

// End returns the open end on side e. The line must not be empty.
func (l Line) End(e End) OpenEnd {
	if e == Left {
		t := l.tiles[0]
		return OpenEnd{Pip: t.Left, Double: t.IsDouble()}
	}
	t := l.tiles[len(l.tiles)-1]
	return OpenEnd{Pip: t.Right, Double: t.IsDouble()}
}

// Total is the count of the ends. A lone tile counts its pips once.
func (l Line) Total() int {
	switch len(l.tiles) {
	case 0:
		return 0
	case 1:
		return l.tiles[0].Left + l.tiles[0].Right
	}
	return l.End(Left).Value() + l.End(Right).Value()
}

// Fits says whether tile t can be laid on end e (any tile fits an empty line).
func (l Line) Fits(t Tile, e End) bool {
	if len(l.tiles) == 0 {
		return true
	}
	return t.Has(l.End(e).Pip)
}

// FitsAny says whether t can be laid anywhere.
func (l Line) FitsAny(t Tile) bool { return l.Fits(t, Left) || l.Fits(t, Right) }

// With returns the line after laying t on end e; Fits(t, e) must hold. The receiver is not
// changed, so views and past states can share the backing array safely.
func (l Line) With(t Tile, e End) Line {
	n := len(l.tiles)
	tiles := make([]Laid, n+1)
	switch {
	case n == 0:
		tiles[0] = Laid{Left: t.Low(), Right: t.High()}
	case e == Left:
		pip := l.End(Left).Pip
		tiles[0] = Laid{Left: t.Other(pip), Right: pip}
		copy(tiles[1:], l.tiles)
	default:
		pip := l.End(Right).Pip
		copy(tiles, l.tiles)
		tiles[n] = Laid{Left: pip, Right: t.Other(pip)}
	}
	return Line{tiles: tiles}
}

// TotalAfter is the ends' count if t were laid on e, without building the new line.
func (l Line) TotalAfter(t Tile, e End) int {
	if len(l.tiles) == 0 {
		return t.Pips()
	}
	pip := l.End(e).Pip
	placed := OpenEnd{Pip: t.Other(pip), Double: t.IsDouble()}
	return placed.Value() + l.End(e.opposite()).Value()
}

func (e End) opposite() End {
	if e == Left {
		return Right
	}
	return Left
}
