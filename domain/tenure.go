package domain

// A seat changes hands only while its match waits for players: a holder leaves and the seat
// opens, then someone else joins it. A seat's credential (its token) is checked at some version
// of the match; what it may see of its seat's tiles is bounded by that check. Should the seat
// have been left or joined after the version its credential was checked at, the credential no
// longer proves the seat: the viewer sees what a spectator sees from that event on, whatever a
// cache or a stale copy on another instance still believed (docs/api-matches.md, "When a seat changes
// hands").

// CheckedAt is v bound to the version at which its credential was found to hold its seat.
// A viewer made by SeatViewer alone is not bound: the referee's own players (bots, the clock)
// use it, and tests.
func (v Viewer) CheckedAt(version int) Viewer {
	if v.isSeat {
		v.checked = version
	}
	return v
}

// Unbound is v without the version its credential was checked at: the same seat, or the
// spectator, as SeatViewer and Spectator make them.
func (v Viewer) Unbound() Viewer {
	v.checked = 0
	return v
}

// Checked is the version v's credential was checked at, with ok=false for a viewer not bound
// to one.
func (v Viewer) Checked() (version int, ok bool) {
	return v.checked, v.isSeat && v.checked > 0
}

// lostSeatAt says whether the event at seq, about seat, ends v's hold on its seat: a seat
// joined or left after v's credential was checked is no longer v's.
func (v Viewer) lostSeatAt(seq, seat int) bool {
	return v.isSeat && v.checked > 0 && seat == v.seat && seq > v.checked
}

// LosesSeat says whether event e ends v's hold on its seat: a join or leave of its seat after
// its credential was checked. A stream sends that event, which anyone may see, and ends.
func (v Viewer) LosesSeat(e Event) bool {
	switch d := e.Data.(type) {
	case SeatJoined:
		return v.lostSeatAt(e.Seq, d.Seat)
	case SeatLeft:
		return v.lostSeatAt(e.Seq, d.Seat)
	}
	return false
}

// Holder is v as m lets it look now: a bound viewer whose seat has been joined or left since
// its credential was checked sees what a spectator sees.
func (m *Match) Holder(v Viewer) Viewer {
	if seat, ok := v.Seat(); ok && seat < len(m.seatChanged) && v.lostSeatAt(m.seatChanged[seat], seat) {
		return Spectator()
	}
	return v
}
