package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/jsonbody"
)

// BenchmarkMoveDecode measures the reading of a move's body alone, the part of BenchmarkMove
// that strict JSON decoding costs, for the bodies clients send.
func BenchmarkMoveDecode(b *testing.B) {
	e := echo.New()
	for name, body := range map[string]string{
		"play": `{"action":"play","tile":"4-6","end":"left"}`,
		"draw": `{"action":"draw"}`,
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/api/v1/matches/x/moves", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				c := e.NewContext(req, httptest.NewRecorder())
				var m MoveRequest
				if err := jsonbody.Decode(c, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
