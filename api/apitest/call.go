package apitest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Answer is a live server's answer to a test's request.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Call sends method url to a live server, with credential (a seat token or a player key;
// none when "") as a bearer token, and body as JSON (none when nil or ""; a string is sent as
// it is, anything else encoded), and returns the answer.
func Call(t testing.TB, method, url, credential string, body any) Answer {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		if b != "" {
			rd = strings.NewReader(b)
		}
	default:
		js, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(js)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if credential != "" {
		req.Header.Set("Authorization", "Bearer "+credential)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return Answer{Status: res.StatusCode, Header: res.Header, Body: data}
}

// CallOK is Call that requires a 2xx answer and decodes it into out (when not nil); it
// returns the answer's body.
func CallOK(t testing.TB, method, url, credential string, body, out any) []byte {
	t.Helper()
	a := Call(t, method, url, credential, body)
	if a.Status/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, url, a.Status, a.Body)
	}
	if out != nil {
		if err := json.Unmarshal(a.Body, out); err != nil {
			t.Fatalf("%s %s: %v", method, url, err)
		}
	}
	return a.Body
}
