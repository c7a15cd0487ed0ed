package jsonbody

import (
	v1 "encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/domain"
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
		`null`:                              `the body must be a JSON object`,
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

// spec is a body with integer fields that have ranges, one nested, and a time.
type spec struct {
	Turn   *int `json:"turn_seconds,omitempty" minimum:"10" maximum:"604800"`
	Target int  `json:"target,omitempty" minimum:"5" maximum:"1000" multipleOf:"5"`
	Floor  int  `json:"floor,omitempty" minimum:"1"`
	Free   int  `json:"free,omitempty"`
	Tables []struct {
		Seats int `json:"seats" minimum:"2" maximum:"4"`
	} `json:"tables,omitempty"`
	StartsAt *time.Time `json:"starts_at,omitempty"`
}

// TestRanges: an integer given out of its field's range, or that is no integer or fits none,
// says the range; a value in range, a field left out or null, and an integer field without a
// range are taken.
func TestRanges(t *testing.T) {
	const turn = "turn_seconds must be an integer from 10 to 604800, not "
	const target = "target must be a multiple of 5 from 5 to 1000, not "
	for body, want := range map[string]string{
		`{"turn_seconds": 10.5}`:                        turn + "10.5",
		`{"turn_seconds": 99999999999999999999}`:        turn + "99999999999999999999",
		`{"turn_seconds": 9}`:                           turn + "9",
		`{"turn_seconds": 0}`:                           turn + "0",
		`{"turn_seconds": -0}`:                          turn + "-0",
		`{"turn_seconds": "60"}`:                        turn + `"60"`,
		`{"turn_seconds": true}`:                        "turn_seconds must be an integer from 10 to 604800",
		`{"turn_seconds": [60]}`:                        "turn_seconds must be an integer from 10 to 604800",
		`{"target": 0}`:                                 target + "0",
		`{"target": 12}`:                                target + "12",
		`{"target": 1005}`:                              target + "1005",
		`{"target": 1e2}`:                               target + "1e2",
		`{"floor": 0}`:                                  "floor must be an integer of at least 1, not 0",
		`{"tables": [{"seats": 2}, {"seats": 5}]}`:      "tables.1.seats must be an integer from 2 to 4, not 5",
		`{"target": "` + strings.Repeat("9", 40) + `"}`: target + `"` + strings.Repeat("9", 31) + "…",
		`{"starts_at": "tomorrow"}`:                     "starts_at must be a time in RFC 3339, such as 2026-12-07T18:00:00Z",
		`{"starts_at": 1765130400}`:                     "starts_at must be a time in RFC 3339, such as 2026-12-07T18:00:00Z",
	} {
		var s spec
		if err := Strict([]byte(body), &s); err == nil || err.Error() != want || !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	for _, body := range []string{`{}`, `{"turn_seconds": null}`, `{"turn_seconds": 10, "target": 1000, "floor": 1, "free": 0}`,
		`{"tables": [{"seats": 4}]}`, `{"free": -7}`, `{"starts_at": "2026-12-07T18:00:00+01:00"}`} {
		var s spec
		if err := Strict([]byte(body), &s); err != nil {
			t.Errorf("%s: %v", body, err)
		}
	}
}

// TestCharset: JSON is read in UTF-8 only: another charset is 415, whatever its case.
func TestCharset(t *testing.T) {
	e := echo.New()
	for ct, ok := range map[string]bool{
		"":                                  true,
		"application/json":                  true,
		"application/json; charset=utf-8":   true,
		"application/json;charset=UTF-8":    true,
		`application/json; charset="Utf-8"`: true,
		"application/problem+json":          true,
		"application/json; charset=utf-16":  false,
		"application/json; charset=latin1":  false,
		"application/json; charset=utf8":    false,
		"text/plain":                        false,
		"application/json; charset":         false,
	} {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"action": "draw"}`))
		req.Header.Set("Content-Type", ct)
		var m move
		err := Decode(e.NewContext(req, httptest.NewRecorder()), &m)
		var pe *problem.Error
		if got := err == nil; got != ok || (!ok && (!errors.As(err, &pe) || pe.Code != problem.CodeUnsupportedMediaType)) {
			t.Errorf("%q: %v, want taken %v", ct, err, ok)
		}
	}
}

// TestOptional: a body that may be left out is none, empty or white space, whatever its type;
// a body given is read as Decode reads it.
func TestOptional(t *testing.T) {
	e := echo.New()
	read := func(body, ct string) (move, error) {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		m := move{Action: "kept"}
		return m, Optional(e.NewContext(req, httptest.NewRecorder()), &m)
	}
	for _, body := range []string{"", " \n\t "} {
		for _, ct := range []string{"", "application/json", "text/plain"} {
			if m, err := read(body, ct); err != nil || m.Action != "kept" {
				t.Errorf("%q as %q: %+v %v", body, ct, m, err)
			}
		}
	}
	if m, err := read(`{"action": "draw"}`, "application/json"); err != nil || m.Action != "draw" {
		t.Errorf("a body: %+v %v", m, err)
	}
	for body, ct := range map[string]string{"null": "", "[[[": "", `{"x": 1}`: "", `{}`: "text/plain", `{ }`: "application/json; charset=utf-16"} {
		if _, err := read(body, ct); err == nil {
			t.Errorf("%q as %q taken", body, ct)
		}
	}
}
