package jsonbody

import (
	"bytes"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
)

// Bodiless lists the POST routes of e that take no body: every POST route not in bodyRoutes,
// so that a route added later takes none until it is listed there.
func Bodiless(e *echo.Echo, bodyRoutes map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, r := range e.Routes() {
		if r.Method == http.MethodPost && !bodyRoutes[r.Path] {
			out[r.Path] = true
		}
	}
	return out
}

// errBodyGiven refuses a body on a route that takes none.
var errBodyGiven = domain.Invalidf("this request takes no body: send none, or {}")

// None reads the body of a request to a route that takes none (the body limit caps it): none,
// or an empty JSON object with white space around it, is accepted; anything else is 400.
func None(c echo.Context) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return ReadError(err)
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil
	}
	if body[0] == '{' && body[len(body)-1] == '}' && len(bytes.TrimSpace(body[1:len(body)-1])) == 0 {
		return nil
	}
	return errBodyGiven
}
