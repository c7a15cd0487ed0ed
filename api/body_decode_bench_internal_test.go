package api

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/jsonbody"
)

// BenchmarkBodyDecode measures the strict reading of a move's body alone, the request made once.
func BenchmarkBodyDecode(b *testing.B) {
	body := []byte(`{"action":"play","tile":"4-6","end":"left"}`)
	req := httptest.NewRequest(http.MethodPost, "/api/v1/matches/x/moves", nil)
	req.Header.Set("Content-Type", "application/json")
	c := echo.New().NewContext(req, httptest.NewRecorder())
	b.ReportAllocs()
	for b.Loop() {
		req.Body = io.NopCloser(bytes.NewReader(body))
		var m MoveRequest
		if err := jsonbody.Decode(c, &m); err != nil {
			b.Fatal(err)
		}
	}
}
