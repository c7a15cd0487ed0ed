package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
)

// The fuzz targets send arbitrary bodies through the real router and SQLite. Their seed corpus
// runs with every go test; `go test -fuzz FuzzMoveBody ./api` explores further.

// FuzzMoveBody posts arbitrary move bodies, If-Match and Idempotency-Key values as the seat to
// move. Whatever comes in, the answer is a success or a documented problem (the harness checks
// it against the contract), never a 5xx, and the match stays whole: its view's version is its
// stored log's length.
func FuzzMoveBody(f *testing.F) {
	for _, s := range []struct{ body, ifMatch, key string }{
		{`{"action":"play","tile":"5-5"}`, "", ""}, {`{"action":"play","tile":"5-5","end":"right"}`, `"2-0"`, "k1"},
		{`{"action":"draw"}`, "", ""}, {`{"action":"pass"}`, "3", ""}, {`{"action":"play","tile":"6-4","end":"left"}`, "", "k1"},
		{`{"action":"play","tile":46}`, "", ""}, {`{"action":"play","tile":["4-6"]}`, "", ""}, {`{"action":"play","tile":"5-5","end":1}`, "", ""},
		{`{"action":null}`, "*", ""}, {`{"action":"play","action":"draw"}`, "", ""}, {`{"Action":"draw"}`, "", ""},
		{`[[[[[[[[[[`, "", ""}, {`{"action":"play","tile":"\u0000"}`, "", "\u00e9"}, {``, "", ""}, {`null`, `W/"1"`, ""},
		{`{"action":"play","tile":"5-5"} {}`, `"1-0", "2-0"`, strings.Repeat("k", 300)}, {"\xff\xfe", "", ""},
	} {
		f.Add(s.body, s.ifMatch, s.key)
	}
	h := newHarness(f)
	var tb *table
	f.Fuzz(func(t *testing.T, body, ifMatch, key string) {
		sub := *h
		sub.t = t
		if tb == nil || tb.view(-1).Status == "finished" {
			tb = sub.create(seed1, false, "human", "human", "greedy")
		}
		tb.h = &sub
		seat := tb.view(-1).Hand.Turn
		req := httptest.NewRequest(http.MethodPost, tb.path("/moves"), strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tb.tokens[seat])
		for name, v := range map[string]string{"If-Match": ifMatch, "Idempotency-Key": key} {
			if v != "" && !strings.ContainsAny(v, "\r\n\x00") { // a server never receives those
				req.Header.Set(name, v)
			}
		}
		r := sub.serve(req)
		if r.status >= 500 || (r.status != 200 && r.header.Get("Content-Type") != "application/problem+json") {
			t.Fatalf("%q -> %d %s", body, r.status, r.body)
		}
		if got, stored := tb.view(-1).Version, len(tb.fullLog()); got != stored {
			t.Fatalf("%q: the view is at version %d, the log holds %d events", body, got, stored)
		}
	})
}

// FuzzCreateBody posts arbitrary create bodies: each is a 201 with a match that reads back
// whole, or a documented problem, never a 5xx.
func FuzzCreateBody(f *testing.F) {
	for _, body := range []string{
		`{"players":[{"name":"Ada","kind":"human"},{"name":"Bo","kind":"human"}]}`,
		`{"players":[{"name":"a","kind":"bot","bot":"greedy"},{"name":"b","kind":"bot","bot":"random"}],"target":5}`,
		`{"players":[{"name":"a","kind":"human"},{"name":"b","kind":"bot","bot":"expert"},{"name":"c","kind":"human"},{"name":"d","kind":"bot","bot":"greedy"}],"partnerships":true,"target":1000}`,
		`{"players":[{"name":"a","kind":"human"},{"name":"b","kind":"human"}],"seed":"1220bce908f962d172dd71edf7f3215397eaadbf54c4d03b1fc8334e91eaf12a"}`,
		`{"players":[{"name":"A\n","kind":"human"},{"name":"B","kind":"human"}]}`, `{"players":[null,null]}`, `{"players":"two"}`,
		`{"players":[{"name":"a","kind":"human"},{"name":"b","kind":"human"}],"target":1e400}`, `{"players":[]}`, `{}`, `[]`, ``,
		`{"players":[{"name":"a","kind":"human"},{"name":"b","kind":"human"}],"target":-5,"target":5}`, `{"players":[{"name":"` + strings.Repeat("é", 40) + `","kind":"human"},{"name":"b","kind":"human"}]}`,
	} {
		f.Add(body)
	}
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, body string) {
		sub := *h
		sub.t = t
		r := sub.do(http.MethodPost, "/api/v1/matches", body)
		switch r.status {
		case http.StatusCreated:
			var created api.CreateMatchResponse
			r.decode(t, &created)
			tb := &table{h: &sub, id: created.Match.ID}
			if v := tb.view(-1); v.Version != len(tb.fullLog()) || v.Version < 2 {
				t.Fatalf("%q: created at version %d, the log holds %d events", body, v.Version, len(tb.fullLog()))
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType:
			var p api.Problem
			if err := json.Unmarshal(r.body, &p); err != nil || p.Status != r.status || p.Detail == "" {
				t.Fatalf("%q -> %d %s", body, r.status, r.body)
			}
		default:
			t.Fatalf("%q -> %d %s", body, r.status, r.body)
		}
	})
}
