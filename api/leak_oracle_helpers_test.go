package api_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
)

// oracle knows, for a live match dealt from a seed it is given (seed1 unless told), which
// tiles each reader may know in each hand. It derives every deal itself with domain.Deck and
// domain.DealDeck (and checks the stored log against them), so that it does not trust the
// code it judges.
type oracle struct {
	t      *testing.T
	seed   domain.Seed
	secret string // the seed in hex, which no answer of the live match may hold
	tokens []string
	// handAt is the hand in play at each seq (0 before the first deal).
	handAt map[int]int
	// known[reader+1][hand] is what reader (-1: a spectator) may know of that hand: its own
	// dealt tiles, the tiles it drew, and every tile played.
	known   []map[int]map[domain.Tile]bool
	current int // the hand in play now
	log     []domain.Event
}

// newOracle reads the stored log of the live match dealt from seed1 at this moment.
func newOracle(t *testing.T, tb *table) *oracle {
	t.Helper()
	seed, err := domain.ParseSeed(seed1)
	if err != nil {
		t.Fatal(err)
	}
	return newOracleOf(t, tb, seed)
}

// newOracleOf reads the stored log of the live match dealt from seed at this moment; its
// seats' tokens are tb's.
func newOracleOf(t *testing.T, tb *table, seed domain.Seed) *oracle {
	t.Helper()
	o := &oracle{t: t, seed: seed, secret: seed.String(), handAt: map[int]int{}}
	o.log = tb.fullLog()
	created := o.log[0].Data.(domain.MatchCreated)
	seats := len(created.Players)
	for s := range seats {
		o.tokens = append(o.tokens, tb.tokens[s])
	}
	for range seats + 1 {
		o.known = append(o.known, map[int]map[domain.Tile]bool{})
	}
	var deal domain.Deal
	drawn := 0
	for _, e := range o.log {
		switch d := e.Data.(type) {
		case domain.HandStarted:
			o.current, drawn = d.Hand, 0
			deal = domain.DealDeck(domain.Deck(seed, d.Hand, d.Redeals), seats, created.HandSize)
			if !slices.Equal(d.Boneyard, deal.Boneyard) || !slices.EqualFunc(d.Hands, deal.Hands, slices.Equal) {
				t.Fatalf("hand %d is not the deal the seed gives: %+v, want %+v", d.Hand, d, deal)
			}
			for r := -1; r < seats; r++ {
				o.known[r+1][d.Hand] = map[domain.Tile]bool{}
				if r >= 0 {
					for _, tile := range deal.Hands[r] {
						o.known[r+1][d.Hand][tile] = true
					}
				}
			}
		case domain.TileDrawn:
			// The seed says which tile it was; only the drawer may know it.
			o.known[d.Seat+1][o.current][deal.Boneyard[drawn]] = true
			drawn++
		case domain.TilePlayed:
			for r := range o.known {
				o.known[r][o.current][d.Tile] = true
			}
		}
		o.handAt[e.Seq] = o.current
	}
	return o
}

// tileRef is a tile named anywhere, quoted or not, in either pip order.
var tileRef = regexp.MustCompile(`\b([0-6])-([0-6])\b`)

// scores in the text notation ("score 10-5") look like tiles; they are not.
var scoreRef = regexp.MustCompile(`score [0-9]+(-[0-9]+)+`)

// names fails when text names a tile outside allowed, the seed, or a seat token.
func (o *oracle) names(reader int, where, text string, allowed map[domain.Tile]bool) {
	o.t.Helper()
	if strings.Contains(text, o.secret) {
		o.t.Fatalf("%s shows reader %d the seed of a live match: %s", where, reader, text)
	}
	for s, tok := range o.tokens {
		if tok != "" && strings.Contains(text, tok) {
			o.t.Fatalf("%s shows reader %d seat %d's token: %s", where, reader, s, text)
		}
	}
	for _, m := range tileRef.FindAllStringSubmatch(scoreRef.ReplaceAllString(text, "score"), -1) {
		tile := domain.MustTile(m[1] + "-" + m[2])
		if !allowed[tile] {
			o.t.Fatalf("%s shows reader %d %s, which it cannot know: %s", where, reader, tile, text)
		}
	}
}

// allowed is what reader may know of hand, plus tiles it sent itself.
func (o *oracle) allowed(reader, hand int, sent ...domain.Tile) map[domain.Tile]bool {
	out := map[domain.Tile]bool{}
	for tile := range o.known[reader+1][hand] {
		out[tile] = true
	}
	for _, tile := range sent {
		out[tile] = true
	}
	return out
}

// judgeJSON judges a JSON answer: each event by the hand it belongs to, the rest by the hand
// the answer shows (the replayed step's, else the current one). sent are tiles the reader
// named in its request, which an error may name back.
func (o *oracle) judgeJSON(reader int, where string, body []byte, sent ...domain.Tile) {
	o.t.Helper()
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		o.t.Fatalf("%s: %v: %s", where, err, body)
	}
	if _, ok := doc["seed"]; ok {
		o.t.Fatalf("%s shows reader %d a seed: %s", where, reader, body)
	}
	scope := o.view(doc)
	var events []json.RawMessage
	if raw, ok := doc["events"]; ok && strings.HasPrefix(string(raw), "[") {
		if err := json.Unmarshal(raw, &events); err != nil {
			o.t.Fatalf("%s: events: %v", where, err)
		}
		delete(doc, "events")
	}
	if raw, ok := doc["event"]; ok {
		events = append(events, raw)
		delete(doc, "event")
	}
	for _, raw := range events {
		o.judgeEvent(reader, where, raw)
	}
	rest, err := json.Marshal(doc)
	if err != nil {
		o.t.Fatal(err)
	}
	o.names(reader, where, string(rest), o.allowed(reader, scope, sent...))
	if _, problem := doc["code"]; !problem {
		o.shapes(reader, where, body, scope)
	}
}

// view is the hand of the state an answer shows: the one at the version of its match view
// (a replayed step, or a stored answer to a retried move), else the current one.
func (o *oracle) view(doc map[string]json.RawMessage) int {
	var at struct {
		Version *int `json:"version"`
	}
	if raw, ok := doc["match"]; ok {
		_ = json.Unmarshal(raw, &at)
	} else if raw, ok := doc["version"]; ok {
		_ = json.Unmarshal(raw, &at.Version)
	}
	if hand, ok := o.handAt[ptrOr(at.Version, -1)]; ok {
		return hand
	}
	return o.current
}

func ptrOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// judgeEvent judges one event by the hand it belongs to.
func (o *oracle) judgeEvent(reader int, where string, raw []byte) {
	o.t.Helper()
	var e api.Event
	if err := json.Unmarshal(raw, &e); err != nil {
		o.t.Fatalf("%s: event %s: %v", where, raw, err)
	}
	hand, ok := o.handAt[e.Seq]
	if !ok {
		o.t.Fatalf("%s: event %d is not in the stored log", where, e.Seq)
	}
	if e.Data.Seed != "" || strings.Contains(string(raw), `"boneyard":[`) {
		o.t.Fatalf("%s shows reader %d the seed or a boneyard: %s", where, reader, raw)
	}
	for s, h := range e.Data.Hands {
		if s != reader && h != nil {
			o.t.Fatalf("%s shows reader %d seat %d's hand: %s", where, reader, s, raw)
		}
	}
	if e.Type == "tile.drawn" && *e.Data.Seat != reader && e.Data.Tile != "" {
		o.t.Fatalf("%s shows reader %d seat %d's draw: %s", where, reader, *e.Data.Seat, raw)
	}
	o.names(reader, fmt.Sprintf("%s, event %d", where, e.Seq), string(raw), o.allowed(reader, hand))
}

// shapes checks the views in an answer (of hand scope): "you" only for the reader's own seat,
// no hand lists or boneyard order in the hand, legal moves only of the reader's own tiles.
func (o *oracle) shapes(reader int, where string, body []byte, scope int) {
	o.t.Helper()
	var doc struct {
		api.MatchView
		Match *api.MatchView `json:"match"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		o.t.Fatalf("%s: %v", where, err)
	}
	for _, v := range []*api.MatchView{&doc.MatchView, doc.Match} {
		if v == nil {
			continue
		}
		if v.You != nil && v.You.Seat != reader {
			o.t.Fatalf("%s shows reader %d seat %d's tiles: %s", where, reader, v.You.Seat, body)
		}
		if v.Hand != nil && (v.Hand.Hands != nil || v.Hand.BoneyardTiles != nil) {
			o.t.Fatalf("%s shows reader %d every hand or the boneyard: %s", where, reader, body)
		}
		for _, m := range v.LegalMoves {
			if reader < 0 || m.Tile != "" && !o.known[reader+1][scope][domain.MustTile(m.Tile)] {
				o.t.Fatalf("%s lists reader %d a move it cannot make: %s", where, reader, body)
			}
		}
	}
}

// judgeText judges the text notation, each hand's block by that hand.
func (o *oracle) judgeText(reader int, where string, body []byte) {
	o.t.Helper()
	hand := 0
	for i, line := range strings.Split(string(body), "\n") {
		if n, ok := strings.CutPrefix(line, "Hand "); ok {
			if _, err := fmt.Sscanf(n, "%d:", &hand); err != nil {
				o.t.Fatalf("%s line %d: %q", where, i+1, line)
			}
		}
		o.names(reader, fmt.Sprintf("%s line %d", where, i+1), line, o.allowed(reader, hand))
	}
}
