package api

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// moveBodies are move bodies of every shape: the plain ones decodeMove reads itself, and the
// others it must hand to decodeStrict (escapes, case, duplicates, other types, trailing data).
var moveBodies = []string{
	`{"action":"play","tile":"4-6","end":"left"}`,
	` {"action" : "draw"} ` + "\n",
	"{\t\"tile\":\"6-6\",\r\n\"action\":\"play\"}",
	`{}`, `{ }`, `{"action":""}`, `{"end":"right"}`,
	`{"action":"play","action":"draw"}`, `{"action":"play","Action":"draw"}`, `{"ACTION":"pass"}`,
	`{"action":"pl\u0061y"}`, `{"action":"play\n"}`, `{"action":"é"}`, "{\"action\":\"\xff\"}",
	`{"action":null}`, `{"action":1}`, `{"tile":["4-6"]}`, `{"action":"draw","extra":"x"}`,
	`{"action":"draw"}{}`, `{"action":"draw"} x`, `{"action":"draw",}`, `{"action":"draw"`,
	`{"action" "draw"}`, `{action:"draw"}`, `["draw"]`, `"draw"`, `{"action":"draw"}}`,
	`{"action":"draw","tile":{"a":"b"}}`, `{,}`, `{"a":"b",`, `{"":"x"}`,
}

// TestDecodeMoveAgreesWithStrict holds decodeMove to decodeStrict: for every body, the same
// value or the same refusal, word for word.
func TestDecodeMoveAgreesWithStrict(t *testing.T) {
	for _, body := range moveBodies {
		checkDecodeMove(t, body)
	}
}

// FuzzDecodeMove looks for a body on which the two readings differ.
func FuzzDecodeMove(f *testing.F) {
	for _, body := range moveBodies {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if strings.TrimSpace(body) != "" {
			checkDecodeMove(t, body)
		}
	})
}

func checkDecodeMove(t *testing.T, body string) {
	t.Helper()
	var fast, slow MoveRequest
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	fastErr := decodeMove(echo.New().NewContext(req, httptest.NewRecorder()), &fast)
	slowErr := decodeStrict([]byte(body), &slow)
	switch {
	case (fastErr == nil) != (slowErr == nil):
		t.Fatalf("%q: decodeMove says %v, decodeStrict %v", body, fastErr, slowErr)
	case fastErr != nil && fastErr.Error() != slowErr.Error():
		t.Fatalf("%q: decodeMove says %q, decodeStrict %q", body, fastErr, slowErr)
	case !reflect.DeepEqual(fast, slow):
		t.Fatalf("%q: decodeMove read %+v, decodeStrict %+v", body, fast, slow)
	}
}

// TestPlainObjectReadsPlainBodies checks that the bodies clients send take the fast path, and
// that what it reads is each member in order.
func TestPlainObjectReadsPlainBodies(t *testing.T) {
	for body, want := range map[string]string{
		`{"action":"play","tile":"4-6","end":"left"}`: "action=play tile=4-6 end=left ",
		" {\"action\" :\t\"draw\"}\r\n":               "action=draw ",
		`{}`:                                          "",
	} {
		var got strings.Builder
		if !plainObject([]byte(body), func(k, v []byte) bool {
			got.WriteString(string(k) + "=" + string(v) + " ")
			return true
		}) || got.String() != want {
			t.Errorf("plainObject(%q) read %q, want %q", body, got.String(), want)
		}
	}
	for _, body := range []string{`{"action":"pl\u0061y"}`, `{"action":1}`, `{"action":"draw"}{}`, `{"action":"draw",}`} {
		if plainObject([]byte(body), func(k, v []byte) bool { return true }) {
			t.Errorf("plainObject(%q) took a body that is not plain", body)
		}
	}
}
