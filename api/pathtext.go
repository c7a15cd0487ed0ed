package api

import (
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain"
)

// textParams refuses a path whose parameters (a match id, a seat, a player id, a format) are
// not text: bytes that are not UTF-8, or a NUL, which `%FF` and `%00` put there. No id has
// them, so no lookup could find one; and PostgreSQL refuses such a parameter for the whole
// statement, which the head checks of concurrent reads share (repository/postgres/headbatch.go),
// so one request of them must never reach the store.
func textParams(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		for i, v := range c.ParamValues() {
			if !isText(v) {
				name := "a path segment"
				if names := c.ParamNames(); i < len(names) {
					name = "the path's " + names[i]
				}
				return domain.Invalidf("%s is not UTF-8 text", name)
			}
		}
		return next(c)
	}
}

// isText says whether s is UTF-8 without a NUL: what PostgreSQL takes as a text parameter.
func isText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}
