package guarantees

import (
	"fmt"
	"net/http"

	"github.com/allfives/allfives/api"
)

// cred is a credential a client sends (or none), and what the suite knows it to be.
type cred struct {
	role   string // credential's role in the case: one of roles
	secret string // the bearer sent; "" sends none
	isKey  bool   // a player key (else a seat token or garbage)
	player string // the key's player, for the routes about "me"
}

// The roles of the credentials docs/design.md ("The guarantee suite") lists: every kind is read
// and acted on with each it has.
const (
	roleNone       = "none"
	roleGarbage    = "garbage"
	roleOwnToken   = "own seat token"
	roleOwnKey     = "own key"
	roleOtherSeat  = "another seat"
	roleOtherTable = "another table"
	roleOrganiser  = "organiser"
	roleRotated    = "rotated key"
	roleStranger   = "a stranger's key"
)

// roles is every role, in the order the cases run them: those that may not act first, so
// that a refused act leaves the fixture as it was for the next.
var roles = []string{roleNone, roleGarbage, roleRotated, roleStranger, roleOtherTable, roleOrganiser, roleOtherSeat, roleOwnToken, roleOwnKey}

// garbageCred is a bearer shaped like a key that no key hashes to.
var garbageCred = cred{role: roleGarbage, secret: "afk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", isKey: true}

// person is a lasting player of the suite.
type person struct {
	id, name, key string
	epoch         int // how many times its key was rotated
}

// asKey is the person's key as a credential of role.
func (p *person) asKey(role string) cred {
	return cred{role: role, secret: p.key, isKey: true, player: p.id}
}

// people are the players the suite made, by name.
type people struct {
	s      *suite
	byName map[string]*person
	n      int
}

func newPeople(s *suite) *people { return &people{s: s, byName: map[string]*person{}} }

// get is the player called name, created through the API on first use.
func (pp *people) get(name string) *person {
	if p, ok := pp.byName[name]; ok {
		return p
	}
	var out api.CreatePlayerResponse
	pp.s.must(http.StatusCreated, request{method: http.MethodPost, path: "/api/v1/players", body: api.CreatePlayerRequest{Name: name}}, &out)
	p := &person{id: out.Player.ID, name: out.Player.Name, key: out.Key}
	pp.byName[name] = p
	return p
}

// fresh is a new player no kind seats: a stranger to every match.
func (pp *people) fresh(what string) *person {
	pp.n++
	return pp.get(fmt.Sprintf("%s %s", what, letters(pp.n)))
}

// letters names n in letters, so that no name holds digits that read as a tile.
func letters(n int) string {
	s := ""
	for n > 0 {
		n--
		s = string(rune('a'+n%26)) + s
		n /= 26
	}
	return s
}

// byID is the suite's player with id, nil for none (a bot's entry).
func (pp *people) byID(id string) *person {
	for _, p := range pp.byName {
		if p.id == id {
			return p
		}
	}
	return nil
}

// rotate gives p a new key and answers the old one, which holds nothing from then on.
func (pp *people) rotate(p *person) cred {
	old := p.asKey(roleRotated)
	var out api.PlayerKeyResponse
	pp.s.must(http.StatusOK, request{method: http.MethodPost, path: "/api/v1/players/me/key", cred: p.asKey(roleOwnKey)}, &out)
	p.key = out.Key
	p.epoch++
	pp.s.truth.forget()
	return old
}
