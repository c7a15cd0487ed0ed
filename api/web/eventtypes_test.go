package web_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/domain"
)

// asset is the text of one of the client's files, as the server serves it from the embedded
// copy.
func (s *site) asset(name string) string {
	s.t.Helper()
	res, err := http.Get(s.url + "/assets/" + name)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		s.t.Fatalf("/assets/%s: %d %v", name, res.StatusCode, err)
	}
	return string(body)
}

// goTypes is domain.EventTypes as strings.
func goTypes() []string {
	out := make([]string, len(domain.EventTypes))
	for i, t := range domain.EventTypes {
		out[i] = string(t)
	}
	return out
}

// TestClientListsEveryEventType reads the embedded client, without a browser: common.js's
// describers, the client's one list of event types, name exactly domain.EventTypes, and the
// table's stream listens to that list rather than to one written out by hand. A type added
// in Go and not to the client fails here.
func TestClientListsEveryEventType(t *testing.T) {
	s := newSite(t)
	common := s.asset("common.js")
	start := strings.Index(common, "const DESCRIBERS = {")
	end := strings.Index(common[max(start, 0):], "\n};")
	if start < 0 || end < 0 {
		t.Fatal("common.js has no DESCRIBERS object")
	}
	var keys []string
	for _, m := range regexp.MustCompile(`(?m)^  "([a-z_]+\.[a-z_]+)":`).FindAllStringSubmatch(common[start:start+end], -1) {
		keys = append(keys, m[1])
	}
	want := goTypes()
	for _, typ := range want {
		if !slices.Contains(keys, typ) {
			t.Errorf("domain.EventTypes has %s, which common.js's describers do not say", typ)
		}
	}
	for _, k := range keys {
		if !slices.Contains(want, k) {
			t.Errorf("common.js describes %s, which is not in domain.EventTypes", k)
		}
	}
	if !strings.Contains(common, "export const EVENT_TYPES = Object.freeze(Object.keys(DESCRIBERS));") {
		t.Error("common.js's EVENT_TYPES is not the describers' list")
	}

	// The table's stream (tablestream.js) is a liveStream (common.js) given EVENT_TYPES, which
	// listens to each.
	stream := s.asset("tablestream.js")
	if !strings.Contains(stream, "types: EVENT_TYPES,") || !strings.Contains(common, "for (const t of types) es.addEventListener(t, (msg) => onEvent(t, msg));") {
		t.Error("the table's stream does not listen to every type of EVENT_TYPES")
	}
	// The only types the table's scripts may write out are those that end a match (OVER).
	for _, script := range []string{"play.js", "tablestream.js", "tablelog.js", "tabletext.js", "hand.js"} {
		src := s.asset(script)
		for _, typ := range want {
			if n := strings.Count(src, `"`+typ+`"`); n > 0 && typ != string(domain.TypeMatchEnded) && typ != string(domain.TypeMatchExpired) && typ != string(domain.TypeMatchCancelled) {
				t.Errorf("%s writes the type %s out by hand (%d times): use EVENT_TYPES", script, typ, n)
			}
		}
	}
}

// describeAll runs common.js's describe in the page for an event of every type given, with a
// payload holding every field some type has, and answers the client's list, each type's words,
// and the words for a type the client does not know.
const describeAll = `import("/assets/common.js").then((m) => {
  const seats = [{ seat: 0, name: "Ann", side: 0, kind: "human" }, { seat: 1, name: "", side: 1, kind: "open" }];
  const data = {
    players: [{ seat: 0, name: "Ann", kind: "human" }, { seat: 1, name: "", kind: "open" }],
    partnerships: false, target: 250, hand_size: 7, seeded: false, hand: 1, leader: 0, lead: "highest_double",
    redeals: 0, boneyard_count: 14, seat: 0, tile: "5-5", end: "left", total: 10, points: 10, outcome: "domino",
    winner_side: 0, pips: [0, 12], scores: [10, 0], seed: "ab", name: "Ann", bot: "greedy",
  };
  const said = {};
  for (const type of %s) said[type] = m.describe({ seq: 1, type, data }, seats);
  return { types: [...m.EVENT_TYPES], said, unknown: m.describe({ seq: 1, type: "no.such_type", data }, seats) };
})`

// TestDescribeEveryEventType runs the client's describe in Chromium for an event of every
// type in domain.EventTypes: none falls to the words for a type the page does not know, none
// says undefined, NaN or null, and the client's list of types is Go's.
func TestDescribeEveryEventType(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	tb := b.tab(false)
	tb.do("open home", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("create")))
	types := goTypes()
	list, _ := json.Marshal(types)
	got := awaitEval[struct {
		Types   []string          `json:"types"`
		Said    map[string]string `json:"said"`
		Unknown string            `json:"unknown"`
	}](tb, fmt.Sprintf(describeAll, list))
	if !strings.Contains(got.Unknown, "no.such_type") {
		t.Fatalf("a type the page does not know reads %q", got.Unknown)
	}
	unknown := func(typ string) string { return strings.ReplaceAll(got.Unknown, "no.such_type", typ) }
	for _, typ := range types {
		words := got.Said[typ]
		switch {
		case words == "" || words == unknown(typ) || words == typ:
			t.Errorf("%s falls to describe's default: %q", typ, words)
		case regexp.MustCompile(`\b(undefined|NaN|null)\b`).MatchString(words):
			t.Errorf("%s reads %q", typ, words)
		}
	}
	if a, b := slices.Sorted(slices.Values(got.Types)), slices.Sorted(slices.Values(types)); !slices.Equal(a, b) {
		t.Errorf("the client's EVENT_TYPES are %v, domain.EventTypes %v", got.Types, types)
	}
	if w := "Match created for Ann, an open seat (seat 1): first to 250."; got.Said["match.created"] != w {
		t.Errorf("a match with an open seat reads %q, want %q", got.Said["match.created"], w)
	}
}

// awaitEval evaluates an expression in the page, waits for the promise it makes, and answers
// its value.
func awaitEval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}
