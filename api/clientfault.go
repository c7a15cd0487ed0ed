package api

import (
	"errors"
	"net"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/problem"
	"github.com/allfives/allfives/domain"
)

// DefaultHeaderLimit is the most bytes of request headers (names, values and the URL) the API
// reads. The http.Server's own MaxHeaderBytes is set higher (serve sets 1 MiB), so that most
// oversize headers reach headerLimit and get a problem+json 431; beyond the server's limit
// net/http answers a plain-text 431 itself, before any handler runs (docs/api.md, "Errors").
const DefaultHeaderLimit = 64 << 10

// bodyReadError classifies a failure to read a request's body: too large is 413 (through
// *http.MaxBytesError), a body that did not arrive before the server's read timeout is 408
// REQUEST_TIMEOUT, and one cut short by the client is INVALID_REQUEST. All are the client's
// doing: none is logged as a server error or counted as a 5xx.
func bodyReadError(err error) error {
	var (
		mbe *http.MaxBytesError
		ne  net.Error
	)
	switch {
	case errors.As(err, &mbe):
		return err
	case errors.As(err, &ne) && ne.Timeout():
		return &problem.Error{Code: problem.CodeRequestTimeout, Detail: "the request body did not arrive before the server's read timeout"}
	}
	return domain.Invalidf("the request body could not be read to its end: the client closed it early")
}

// headerLimit answers 431 HEADER_TOO_LARGE, as problem+json, to a request whose headers and URL
// together exceed limit bytes.
func headerLimit(limit int) echo.MiddlewareFunc {
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
				return &problem.Error{Code: problem.CodeHeaderTooLarge, Detail: "the request's headers and URL are larger than " + itoa(int64(limit)) + " bytes"}
			}
			return next(c)
		}
	}
}
