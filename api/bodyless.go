package api

import (
	"bytes"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
)

// bodyRoutes are the POST routes that read a JSON body. Every other POST route takes none:
// whatever a client sends there is refused rather than ignored (noBody), so that a client
// that believes it sent something the server reads learns that it did not.
var bodyRoutes = map[string]bool{
	"/api/v1/matches":                      true,
	"/api/v1/matches/:id/moves":            true,
	"/api/v1/matches/:id/seats/:seat/join": true,
	"/api/v1/players":                      true,
	"/api/v1/seeks":                        true,
}

// bodilessRoutes lists the POST routes of e that take no body: every POST route not in
// bodyRoutes, so that a route added later takes none until it is listed there.
func bodilessRoutes(e *echo.Echo) map[string]bool {
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

// noBody reads the body of a request to a route that takes none (bodyLimit caps it): none, or
// an empty JSON object with white space around it, is accepted; anything else is 400.
func noBody(c echo.Context) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return bodyReadError(err)
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
