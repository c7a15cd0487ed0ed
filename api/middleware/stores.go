package middleware

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
)

// OneHeadCheck gives each request a memo of the head checks its reads make: on a store shared
// by several instances a cached match serves a read only once the store confirms it is the
// head, and the reads of one request (its token's check, then the state) need that once
// (docs/design.md, "Several instances").
func OneHeadCheck(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		c.SetRequest(r.WithContext(referee.OneHeadCheck(r.Context())))
		return next(c)
	}
}

// TextParams refuses a path whose parameters (a match id, a seat, a player id, a format) are
// not text: bytes that are not UTF-8, or a NUL, which `%FF` and `%00` put there. No id has
// them, so no lookup could find one (a match's or a player's id is their usual 404, anything
// else a 400); and PostgreSQL refuses such a parameter for the whole
// statement, which the head checks of concurrent reads share (repository/postgres/headbatch.go),
// so one request of them must never reach the store.
func TextParams(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		for i, v := range c.ParamValues() {
			if isText(v) {
				continue
			}
			name := ""
			if names := c.ParamNames(); i < len(names) {
				name = names[i]
			}
			// An id no id could be is one no match or player has: the 404 any unknown id gets.
			switch route := c.Path(); {
			case name == "id" && strings.HasPrefix(route, "/api/v1/matches/"):
				return fmt.Errorf("%w: no match has that id", domain.ErrMatchNotFound)
			case name == "id" && strings.HasPrefix(route, "/api/v1/players/"):
				return fmt.Errorf("%w: no player has that id", players.ErrPlayerNotFound)
			}
			return domain.Invalidf("a path segment is not UTF-8 text")
		}
		return next(c)
	}
}

// isText says whether s is UTF-8 without a NUL: what PostgreSQL takes as a text parameter.
func isText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}
