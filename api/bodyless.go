package api

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/players"
)

// bodyRoutes are the POST routes that read a JSON body. Every other POST route takes none:
// whatever a client sends there is refused rather than ignored (noBody), so that a client
// that believes it sent something the server reads learns that it did not.
var bodyRoutes = map[string]bool{
	"/api/v1/matches":                      true,
	"/api/v1/matches/:id/moves":            true,
	"/api/v1/matches/:id/seats/:seat/join": true,
	"/api/v1/players":                      true,
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

// errKeyInURL refuses a player key in a URL, where proxies and access logs keep it.
var errKeyInURL = domain.Invalidf("a player key never goes in a URL, where proxies and access logs keep it: " +
	"send it as Authorization: Bearer <key>; a browser's EventSource, which cannot, opens a stream with " +
	"?ticket= and a single-use ticket from POST /api/v1/players/me/tickets (or POST /api/v1/matches/{id}/tickets for a match's stream)")

// noKeyInURL refuses a request with a player key in its path or query, whatever the route: a
// key is good until rotated, and a URL is written down by every proxy it passes. The path the
// access log and the problem show is cut to the key's prefix, so the key is not written down
// here either.
func noKeyInURL(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		u := c.Request().URL
		if keyInPath(u) || keyInQuery(u.RawQuery) {
			u.Path, u.RawPath = redactKeys(u.Path), ""
			return errKeyInURL
		}
		return next(c)
	}
}

// keyInPath says whether a segment of u's path is a player key.
func keyInPath(u *url.URL) bool {
	if !strings.Contains(u.Path, players.KeyPrefix) {
		return false
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if players.IsKey(seg) {
			return true
		}
	}
	return false
}

// keyInQuery says whether a name or value of the query is a player key. A query without the
// key's prefix or an escape costs no parsing.
func keyInQuery(raw string) bool {
	if raw == "" || (!strings.Contains(raw, players.KeyPrefix) && !strings.Contains(raw, "%")) {
		return false
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return false // the route's own query check refuses it
	}
	for name, vals := range q {
		if players.IsKey(strings.TrimSpace(name)) {
			return true
		}
		for _, v := range vals {
			if players.IsKey(strings.TrimSpace(v)) {
				return true
			}
		}
	}
	return false
}

// redactKeys cuts every player key in path to its prefix.
func redactKeys(path string) string {
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		if players.IsKey(seg) {
			segs[i] = players.KeyPrefix + "..."
		}
	}
	return strings.Join(segs, "/")
}
