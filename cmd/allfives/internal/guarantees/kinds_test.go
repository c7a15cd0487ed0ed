package guarantees

import (
	"slices"
	"sort"
)

// kind is one kind of match docs/design.md lists, as the suite made it: the match its cases are
// about, its tournament or seek when it has one, and who holds its seats.
type kind struct {
	name       string
	match      string // the match the kind's cases are about
	tournament string // its tournament, "" when none
	seeks      []string
	// seats holds each seat's holders: its token, and its player when bound.
	seats map[int]holder
	own   int // the seat whose holders are "own"; another seat is "another seat"
	// organiser and otherTable are the tournament's organiser and a player of another table
	// of the same round; nil when the kind has none.
	organiser, otherTable *person
	// reserved is a seat open for someone (a challenge, an offer), -1 when none: join and
	// decline are asked about it.
	reserved int
	// reservedFor is what takes or declines the reserved seat: the challenged player's key, or
	// the old seat's token of an anonymous rematch offer.
	reservedFor cred
	// invite is an open seat's invite, for a join.
	invite string
}

// holder is who holds a seat: its token, and its player when the seat is bound.
type holder struct {
	token string
	who   *person
	epoch int // the player's key rotations when the token was drawn
}

// newHolder is a seat held with token, bound to who (nil: anonymous).
func newHolder(token string, who *person) holder {
	h := holder{token: token, who: who}
	if who != nil {
		h.epoch = who.epoch
	}
	return h
}

// valid says the holder's token still holds its seat: a key's rotation revokes the tokens
// of its player's seats.
func (h holder) valid() bool { return h.token != "" && (h.who == nil || h.epoch == h.who.epoch) }

// newKind is a kind of match id with no holders yet.
func newKind(name, match string) *kind {
	return &kind{name: name, match: match, seats: map[int]holder{}, reserved: -1}
}

// creds are the credentials the kind's cases send, one per role it has, in roles' order.
func (s *suite) creds(k *kind) []cred {
	out := []cred{{role: roleNone}, garbageCred, s.rotated, s.stranger.asKey(roleStranger)}
	if k.otherTable != nil {
		out = append(out, k.otherTable.asKey(roleOtherTable))
	}
	if k.organiser != nil {
		out = append(out, k.organiser.asKey(roleOrganiser))
	}
	seats := make([]int, 0, len(k.seats))
	for seat := range k.seats {
		seats = append(seats, seat)
	}
	sort.Ints(seats)
	other := false
	for _, seat := range seats {
		if seat == k.own || other {
			continue
		}
		h := k.seats[seat]
		if h.valid() {
			out, other = append(out, cred{role: roleOtherSeat, secret: h.token}), true
		} else if h.who != nil {
			out, other = append(out, h.who.asKey(roleOtherSeat)), true
		}
	}
	if !other && k.reservedFor.secret != "" {
		out = append(out, k.reservedFor)
	}
	if h, ok := k.seats[k.own]; ok {
		if h.valid() {
			out = append(out, cred{role: roleOwnToken, secret: h.token})
		}
		if h.who != nil {
			out = append(out, h.who.asKey(roleOwnKey))
		}
	}
	slices.SortStableFunc(out, func(a, b cred) int { return slices.Index(roles, a.role) - slices.Index(roles, b.role) })
	return out
}

// byName is the kind called name.
func (s *suite) byName(name string) *kind {
	for _, k := range s.kinds {
		if k.name == name {
			return k
		}
	}
	s.t.Fatalf("no kind %q", name)
	return nil
}
