package guarantees

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

func itoa(n int) string { return strconv.Itoa(n) }

// documents are the JSON documents of an answer: its body, or each event a stream sent.
func documents(v seen) []any {
	if !strings.HasPrefix(v.a.header.Get("Content-Type"), "text/event-stream") {
		if doc := v.decoded(); doc != nil {
			return []any{doc}
		}
		return nil
	}
	var out []any
	for _, line := range strings.Split(string(v.a.body), "\n") {
		var doc any
		if data, ok := strings.CutPrefix(line, "data:"); ok && json.Unmarshal([]byte(strings.TrimSpace(data)), &doc) == nil {
			out = append(out, doc)
		}
	}
	return out
}

// shapes walks every JSON document of the answer and holds each event of the subject match
// and each match view, of whatever match, to what its caller may see: no other seat's hand
// or draw, no boneyard, no seed of a sealed match, no hash chain, while the match is live or
// sealed.
func (s *suite) shapes(v seen, subject *matchTruth, holds []int) {
	s.t.Helper()
	for _, doc := range documents(v) {
		s.walk(v, doc, subject, holds)
	}
}

func (s *suite) walk(v seen, node any, subject *matchTruth, holds []int) {
	s.t.Helper()
	switch n := node.(type) {
	case []any:
		for _, e := range n {
			s.walk(v, e, subject, holds)
		}
	case map[string]any:
		if _, isView := n["seats"]; isView {
			if id, ok := n["id"].(string); ok && n["status"] != nil {
				m := s.truth.of(id)
				held := holds
				if subject == nil || m != subject {
					held = s.truth.holds(m, v.r.cred)
				}
				s.viewShape(v, n, m, held)
			}
		}
		if subject != nil && !subject.open() {
			if _, isEvent := n["seq"]; isEvent && n["type"] != nil {
				s.event(v, n, subject, holds)
			}
			for _, chain := range []string{"hash", "prev_hash", "raw_data", "head_hash"} {
				if x, ok := n[chain]; ok && x != nil && x != "" {
					s.violation("I1", v, "%q of match %s is shown while it is live or sealed: the chain commits to hidden tiles", chain, subject.id)
				}
			}
		}
		for _, e := range n {
			s.walk(v, e, subject, holds)
		}
	}
}

// event holds one event of a live or sealed match to its caller's seats.
func (s *suite) event(v seen, e map[string]any, m *matchTruth, holds []int) {
	s.t.Helper()
	data, _ := e["data"].(map[string]any)
	switch e["type"] {
	case "hand.started":
		hands, _ := data["hands"].([]any)
		for seat, h := range hands {
			if h != nil && !slices.Contains(holds, seat) {
				s.violation("I1", v, "hand.started of match %s shows seat %d's hand to a credential holding %v", m.id, seat, holds)
			}
		}
		if b, ok := data["boneyard"].([]any); ok && len(b) > 0 {
			s.violation("I1", v, "hand.started of match %s shows the boneyard", m.id)
		}
	case "tile.drawn":
		seat, _ := data["seat"].(float64)
		if data["tile"] != nil && !slices.Contains(holds, int(seat)) {
			s.violation("I1", v, "tile.drawn of match %s shows seat %d's draw to a credential holding %v", m.id, int(seat), holds)
		}
	case "match.ended":
		if seed, _ := data["seed"].(string); seed != "" && m.sealed {
			s.violation("I1", v, "match.ended of sealed match %s shows its seed", m.id)
		}
	}
}

// viewShape holds one match view to its caller's seats.
func (s *suite) viewShape(v seen, view map[string]any, m *matchTruth, holds []int) {
	s.t.Helper()
	if m == nil || m.open() {
		return
	}
	if hand, ok := view["hand"].(map[string]any); ok {
		for _, f := range []string{"hands", "boneyard_tiles"} {
			if x, ok := hand[f].([]any); ok && len(x) > 0 {
				s.violation("I1", v, "the view of live or sealed match %s shows %s", m.id, f)
			}
		}
	}
	if you, ok := view["you"].(map[string]any); ok {
		seat, _ := you["seat"].(float64)
		if !slices.Contains(holds, int(seat)) {
			s.violation("I1", v, "the view of match %s shows seat %d's tiles to a credential holding %v", m.id, int(seat), holds)
		}
	}
	if lm, ok := view["legal_moves"].([]any); ok && len(lm) > 0 && len(holds) == 0 {
		s.violation("I1", v, "the view of match %s shows legal moves to a credential holding no seat", m.id)
	}
}
