package guarantees

import (
	"regexp"
	"slices"
	"strings"

	"github.com/allfives/allfives/domain"
)

// tileName is a tile as its two pips, low first: [lo][hi].
type tileName [2]int

// shown is every tile the holder of seats may have been shown in m: the tiles dealt to and
// drawn by those seats, and every tile played. Any other tile of a live or sealed match is
// hidden from it: its name anywhere in an answer about m tells where that tile lies.
func shown(m *matchTruth, seats []int) map[tileName]bool {
	out := map[tileName]bool{}
	add := func(t domain.Tile) { out[tileName{t.Low(), t.High()}] = true }
	for _, e := range m.events {
		switch d := e.Data.(type) {
		case domain.HandStarted:
			for _, s := range seats {
				if s < len(d.Hands) {
					for _, t := range d.Hands[s] {
						add(t)
					}
				}
			}
		case domain.TileDrawn:
			if d.Tile != nil && slices.Contains(seats, d.Seat) {
				add(*d.Tile)
			}
		case domain.TilePlayed:
			add(d.Tile)
		}
	}
	return out
}

// scores are the notation's score lines ("score 5-0", "wins 65-105"), whose numbers read
// like tiles.
var scores = regexp.MustCompile(`(score|wins) [0-9]+(-[0-9]+)+`)

// tilesIn are the tiles named in text: "a-b" with pips 0 to 6 that no letter or digit
// touches (so dates, ids and longer numbers are not read as tiles).
func tilesIn(text string) []tileName {
	text = scores.ReplaceAllString(text, "")
	alnum := func(i int) bool {
		if i < 0 || i >= len(text) {
			return false
		}
		c := text[i]
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	pip := func(c byte) bool { return c >= '0' && c <= '6' }
	var out []tileName
	for i := 0; i+2 < len(text); i++ {
		if text[i+1] != '-' || !pip(text[i]) || !pip(text[i+2]) || alnum(i-1) || alnum(i+3) {
			continue
		}
		a, b := int(text[i]-'0'), int(text[i+2]-'0')
		out = append(out, tileName{min(a, b), max(a, b)})
	}
	return out
}

// checkI1 holds I1 (hidden tiles) on an answer: the ETag names no seat but the caller's; an
// answer about one match names no tile its caller was never shown there (body, headers,
// error text); and every event and view it carries, about whatever match, is as its caller
// may see it.
func (s *suite) checkI1(v seen) {
	s.t.Helper()
	s.etagNamesOwnSeat(v)
	subject, holds := s.subject(v)
	if subject != nil && !subject.open() && len(subject.events) > 0 {
		s.counts.hiddenChecked++
		seen := shown(subject, holds)
		text := v.a.text()
		if tag := v.a.header.Get("ETag"); tag != "" {
			text = strings.ReplaceAll(text, tag, "")
		}
		for _, t := range tilesIn(text) {
			if !seen[t] {
				s.violation("I1", v, "tile %d-%d of match %s is named, and the credential (seats %v) was never shown it", t[0], t[1], subject.id, holds)
				break
			}
		}
	}
	s.shapes(v, subject, holds)
}

// subject is the match an answer is about, and the seats its caller holds there: the match
// of a route under /matches/:id, unless the answer is the view of another (a rematch's, a
// new match's), whose subject that is.
func (s *suite) subject(v seen) (*matchTruth, []int) {
	doc, _ := v.decoded().(map[string]any)
	m, holds := v.match, v.holds
	if mv, ok := doc["match"].(map[string]any); ok {
		if id, ok := mv["id"].(string); ok && (m == nil || id != m.id) {
			m = s.truth.of(id)
			own := holds
			holds = s.truth.holds(m, v.r.cred)
			if strings.HasSuffix(v.route, "/rematch") {
				// A rematch answers the next match as the caller's seat of the finished
				// one: its previous holder's (docs/api-players.md, "Rematch").
				holds = append(holds, own...)
			}
		}
	}
	// A seat's token the answer hands over (a join's, a rematch's, a create's) holds that
	// seat for whoever reads the answer.
	for _, t := range handedTokens(doc) {
		holds = append(holds, s.truth.holds(m, cred{secret: t})...)
	}
	return m, holds
}

// handedTokens are the seat tokens an answer hands over: "token", and "tokens"[].token.
func handedTokens(doc map[string]any) []string {
	var out []string
	if t, ok := doc["token"].(string); ok {
		out = append(out, t)
	}
	list, _ := doc["tokens"].([]any)
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			if t, ok := m["token"].(string); ok {
				out = append(out, t)
			}
		}
	}
	return out
}

// etagNamesOwnSeat: a view's ETag is "version-s" for a spectator or "version-seat" for the
// caller's own seat.
func (s *suite) etagNamesOwnSeat(v seen) {
	s.t.Helper()
	tag := strings.Trim(v.a.header.Get("ETag"), `"`)
	fields := strings.Split(tag, "-") // version, seat or s, then what a finished match adds
	if len(fields) < 2 || fields[1] == "s" || v.match == nil {
		return
	}
	who := fields[1]
	for _, seat := range v.holds {
		if who == itoa(seat) {
			return
		}
	}
	s.violation("I1", v, "the ETag %s names seat %s, which the credential does not hold", tag, who)
}
