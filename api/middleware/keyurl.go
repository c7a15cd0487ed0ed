package middleware

import (
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
)

// errKeyInURL refuses a player key in a URL, where proxies and access logs keep it.
var errKeyInURL = domain.Invalidf("a player key never goes in a URL, where proxies and access logs keep it: " +
	"send it as Authorization: Bearer <key>; a browser's EventSource, which cannot, opens a stream with " +
	"?ticket= and a single-use ticket from POST /api/v1/players/me/tickets (or POST /api/v1/matches/{id}/tickets for a match's stream)")

// NoKeyInURL refuses a request with a player key in its path or query, whatever the route: a
// key is good until rotated, and a URL is written down by every proxy it passes. The path the
// access log and the problem show is cut to the key's prefix, so the key is not written down
// here either.
func NoKeyInURL(next echo.HandlerFunc) echo.HandlerFunc {
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
