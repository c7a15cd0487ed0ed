package middleware

import (
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/problem"
)

// DefaultHeaderLimit is the most bytes of request headers (names, values and the URL) the API
// reads. The http.Server's own MaxHeaderBytes is set higher (serve sets 1 MiB), so that most
// oversize headers reach HeaderLimit and get a problem+json 431; beyond the server's limit
// net/http answers a plain-text 431 itself, before any handler runs (docs/api.md, "Errors").
const DefaultHeaderLimit = 64 << 10

// HeaderLimit answers 431 HEADER_TOO_LARGE, as problem+json, to a request whose headers and URL
// together exceed limit bytes.
func HeaderLimit(limit int) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			n := len(req.RequestURI)
			for name, values := range req.Header {
				for _, v := range values {
					n += len(name) + len(v) + 4 // ": " and CRLF
				}
			}
			if n > limit {
				return &problem.Error{Code: problem.CodeHeaderTooLarge, Detail: "the request's headers and URL are larger than " + strconv.Itoa(limit) + " bytes"}
			}
			return next(c)
		}
	}
}
