package api

import (
	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/domain/app/referee"
)

// oneHeadCheck gives each request a memo of the head checks its reads make: on a store shared
// by several instances a cached match serves a read only once the store confirms it is the
// head, and the reads of one request (its token's check, then the state) need that once
// (docs/design.md, "Several instances").
func oneHeadCheck(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		c.SetRequest(r.WithContext(referee.OneHeadCheck(r.Context())))
		return next(c)
	}
}
