package bot

import (
	"math/bits"

	"github.com/allfives/allfives/domain"
)

// knowledge is what one seat can infer from its view about where the tiles it cannot see are.
//
// Each other seat's hidden hand is a list of slots, oldest first: one per dealt tile, one per
// tile drawn since. A slot carries the tiles it cannot be. When a seat draws or passes with
// ends x and y showing, it held no tile with x or y, so every slot it has at that moment
// forbids them; a tile it draws later starts unconstrained. When it plays a tile, the slot
// removed is the oldest one that allows the tile. Because a slot sees every observation made
// after it appeared, forbidden sets only shrink from oldest to newest, and removing the oldest
// compatible slot keeps every hand that is truly possible (it may keep a few that are not),
// so sampling never rules out the real deal.
type knowledge struct {
	me      int
	players int
	mine    uint32
	line    uint32
	unseen  uint32      // neither in my hand nor on the line: in other hands or the boneyard
	slots   [4][]uint32 // per seat, the forbidden set of each hidden tile, oldest first
	bone    int         // boneyard count
	patched bool        // the history disagreed with the counts; tests check it never does
	trail               // who held which slot when, for weighting deals by past choices
}

// read builds the knowledge of v's seat from v alone.
func read(v domain.SeatView) *knowledge {
	k := &knowledge{me: v.Seat, players: v.Table.Players(), mine: maskOf(v.Hand)}
	var ends [2]int
	var open openEnds
	lineLen := 0
	leadDouble := false
	for _, e := range v.History {
		switch d := e.Data.(type) {
		case domain.HandStarted:
			k.deal(d)
			leadDouble = d.Lead == domain.LeadHighestDouble
		case domain.TilePlayed:
			t := d.Tile.Index()
			if lineLen == 0 && leadDouble && d.Tile.IsDouble() {
				// The highest double dealt was led, so no hand was dealt a higher one.
				k.forbidAll(doubles[d.Tile.Low()])
			}
			e := 0
			if d.End == domain.Right {
				e = 1
			}
			if lineLen > 0 || !leadDouble { // a lead of the highest double is no choice
				k.noteChoice(d.Seat, open, t, e)
			}
			k.removeSlot(d.Seat, t)
			k.line |= 1 << t
			ends = placeOnEnds(ends, lineLen, d.Tile, d.End)
			open = open.after(t, e)
			lineLen++
		case domain.TileDrawn:
			k.voidOn(d.Seat, ends, lineLen)
			if d.Seat != k.me && d.Seat >= 0 && d.Seat < len(k.slots) {
				k.addSlot(d.Seat)
			}
		case domain.TurnPassed:
			k.voidOn(d.Seat, ends, lineLen)
		}
	}
	k.line |= maskOf(lineTiles(v.Line)) // the view's line is authoritative
	k.unseen = allTiles &^ k.mine &^ k.line
	k.reconcile(v)
	return k
}

func (k *knowledge) deal(d domain.HandStarted) {
	k.trail = trail{}
	for s := range k.slots {
		k.slots[s] = k.slots[s][:0]
	}
	for s := 0; s < k.players && s < len(d.HandSizes); s++ {
		if s != k.me {
			for range d.HandSizes[s] {
				k.addSlot(s)
			}
		}
	}
}

// forbidAll forbids tiles in every slot of every other seat.
func (k *knowledge) forbidAll(tiles uint32) {
	for s := range k.slots {
		for i := range k.slots[s] {
			k.slots[s][i] |= tiles
		}
	}
}

// voidOn records that seat could not play on the ends showing.
func (k *knowledge) voidOn(seat int, ends [2]int, lineLen int) {
	if seat == k.me || seat < 0 || seat >= len(k.slots) || lineLen == 0 {
		return
	}
	tiles := pipTiles[ends[0]] | pipTiles[ends[1]]
	for i := range k.slots[seat] {
		k.slots[seat][i] |= tiles
	}
}

// removeSlot takes out the oldest slot of seat that allows tile t (see knowledge).
func (k *knowledge) removeSlot(seat, t int) {
	if seat == k.me || seat < 0 || seat >= len(k.slots) || len(k.slots[seat]) == 0 {
		return
	}
	s := k.slots[seat]
	at := len(s) - 1 // none allows t only if the log contradicts itself: drop the loosest
	for i, f := range s {
		if f&(1<<t) == 0 {
			at = i
			break
		}
	}
	k.slots[seat] = append(s[:at], s[at+1:]...)
	k.dropID(seat, at, t)
}

// reconcile makes the slot counts agree with the view's hand sizes and boneyard count, which
// are authoritative; the history agrees with them in every log the domain writes.
func (k *knowledge) reconcile(v domain.SeatView) {
	for s := 0; s < k.players; s++ {
		if s == k.me || s >= len(v.HandSizes) {
			continue
		}
		if len(k.slots[s]) != v.HandSizes[s] {
			k.patched = true
		}
		for len(k.slots[s]) < v.HandSizes[s] {
			k.addSlot(s)
		}
		k.slots[s] = k.slots[s][:v.HandSizes[s]]
		k.ids[s] = k.ids[s][:v.HandSizes[s]]
	}
	k.bone = bits.OnesCount32(k.unseen)
	for s := 0; s < k.players; s++ {
		k.bone -= len(k.slots[s])
	}
	if k.bone != v.Boneyard {
		k.patched = true
	}
	k.bone = max(k.bone, 0)
}

// possible is the set of tiles seat may hold: unseen tiles its newest, least constrained slot
// allows. It is empty for a seat with no tiles.
func (k *knowledge) possible(seat int) uint32 {
	s := k.slots[seat]
	if len(s) == 0 {
		return 0
	}
	return k.unseen &^ s[len(s)-1]
}

// placeOnEnds returns the ends' pips after tile t is laid on end e of a line of lineLen tiles.
func placeOnEnds(ends [2]int, lineLen int, t domain.Tile, e domain.End) [2]int {
	if lineLen == 0 {
		return [2]int{t.Low(), t.High()}
	}
	i := 0
	if e == domain.Right {
		i = 1
	}
	if t.Has(ends[i]) {
		ends[i] = t.Other(ends[i])
	}
	return ends
}

func lineTiles(l domain.Line) []domain.Tile {
	laid := l.Tiles()
	out := make([]domain.Tile, 0, len(laid))
	for _, x := range laid {
		t, err := domain.NewTile(x.Left, x.Right)
		if err == nil {
			out = append(out, t)
		}
	}
	return out
}
