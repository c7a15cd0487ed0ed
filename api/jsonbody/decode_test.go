package jsonbody

import (
	v1 "encoding/json"
	"reflect"
	"strings"
	"testing"
)

// move and create are bodies of the shapes the API reads: flat strings, and nested objects.
type move struct {
	Action string  `json:"action"`
	Tile   *string `json:"tile,omitempty"`
	End    *string `json:"end,omitempty"`
}

type create struct {
	Players []struct {
		Name string `json:"name,omitempty"`
		Kind string `json:"kind"`
	} `json:"players"`
	Target *int `json:"target,omitempty"`
	Rated  bool `json:"rated,omitempty"`
}

// TestStrictWording pins what a client is told of each kind of bad body.
func TestStrictWording(t *testing.T) {
	for body, want := range map[string]string{
		`{"action":"play","action":"draw"}`: `field "action" is given more than once`,
		`{"action":"play","Action":"draw"}`: `unknown field "Action": names are case-sensitive`,
		`{"ACTION":"pass"}`:                 `unknown field "ACTION": names are case-sensitive`,
		`{"action":"draw","extra":"x"}`:     `unknown field "extra": names are case-sensitive`,
		`{"action":1}`:                      `field "action" must be a JSON string`,
		`{"tile":["4-6"]}`:                  `field "tile" must be a JSON string`,
		`["draw"]`:                          `the body must be a JSON object`,
		`"draw"`:                            `the body must be a JSON object`,
		`{"action":"draw"}{}`:               `data after the JSON value`,
		`{"action":"draw"} x`:               `data after the JSON value`,
		`{"action":"draw"}}`:                `data after the JSON value`,
		`{"action":"draw"`:                  `the JSON ends early`,
		`{"action":"draw",}`:                `syntax error at byte 17`,
		"{\"action\":\"\xff\"}":             `the body is not UTF-8 text`,
		`{"action":"B\ud800ob"}`:            `a string holds half a surrogate pair (a \u escape of U+D800 to U+DBFF without its second half)`,
		`{"action":"Bob\ud83d"}`:            `a string holds half a surrogate pair (a \u escape of U+D800 to U+DBFF without its second half)`,
		`{"action":"B\udc00ob"}`:            `a string holds half a surrogate pair (a \u escape of U+DC00 to U+DFFF without its first half)`,
	} {
		var m move
		err := Strict([]byte(body), &m)
		if err == nil || err.Error() != "malformed JSON body: "+want {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
	for body, want := range map[string]string{
		`{"players":[{"kind":"human","Kind":"bot"}]}`: `unknown field "players.0.Kind": names are case-sensitive`,
		`{"players":[{"kind":"a","kind":"b"}]}`:       `field "players.0.kind" is given more than once`,
		`{"target":"150"}`:                            `field "target" must be a JSON number`,
		`{"rated":"yes"}`:                             `field "rated" must be a JSON boolean`,
		`{"players":{"kind":"human"}}`:                `field "players" must be a JSON array`,
	} {
		var c create
		err := Strict([]byte(body), &c)
		if err == nil || err.Error() != "malformed JSON body: "+want {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}

// TestStrictMeansWhatJSONMeans: a body taken means what encoding/json reads in it, escapes and
// white space included.
func TestStrictMeansWhatJSONMeans(t *testing.T) {
	for _, body := range strictSeeds {
		checkAgrees(t, body)
	}
}

var strictSeeds = []string{
	`{"action":"play","tile":"4-6","end":"left"}`, ` {"action" : "draw"} ` + "\n",
	"{\t\"tile\":\"6-6\",\r\n\"action\":\"play\"}", `{}`, `{ }`, `{"action":""}`,
	`{"action":"pl\u0061y"}`, `{"action":"play\n"}`, `{"action":"é"}`, `{"action":null}`,
	`{"action":"Ann \\ud800"}`, `{"action":"\u00e9\ud83c\udf1f"}`, `{"action":"play","action":"draw"}`,
}

// FuzzStrict looks for a body that Strict takes with another meaning than encoding/json's.
func FuzzStrict(f *testing.F) {
	for _, body := range strictSeeds {
		f.Add(body)
	}
	f.Fuzz(checkAgrees)
}

func checkAgrees(t *testing.T, body string) {
	var got, want move
	if Strict([]byte(body), &got) != nil {
		return
	}
	if err := v1.Unmarshal([]byte(body), &want); err != nil {
		t.Fatalf("%q: taken, yet encoding/json refuses it: %v", body, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: read as %+v, encoding/json reads %+v", body, got, want)
	}
	if strings.Count(strings.ToLower(body), `"action"`) > 1 {
		t.Fatalf("%q: a name given twice was taken", body)
	}
}
