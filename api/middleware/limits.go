package middleware

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/jsonbody"
	"github.com/allfives/allfives/api/problem"
)

// DefaultBodyLimit is the largest request body accepted: a create request for four players
// with long names is under 1 KiB, so 64 KiB leaves room without inviting abuse.
const DefaultBodyLimit = 64 << 10

// DefaultHeaderLimit is the most bytes of request headers (names, values and the URL) the API
// reads. The http.Server's own MaxHeaderBytes is set higher (serve sets 1 MiB), so that most
// oversize headers reach HeaderLimit and get a problem+json 431; beyond the server's limit
// net/http answers a plain-text 431 itself, before any handler runs (docs/api-errors.md, "Errors").
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

// BodyLimit refuses a declared oversize body at once and caps what a handler can read of an
// undeclared (chunked) one to limit bytes; a route bodiless names takes no body and gets none
// or {} (jsonbody.None). Only POST routes read a body: another method's body is ignored
// (net/http drops the connection rather than drain a large one), so a GET with a stray body
// gets its documented answer, not a 413 its route never promised.
func BodyLimit(limit int64, bodiless func(route string) bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if req.Method != http.MethodPost {
				req.Body = http.NoBody
				return next(c)
			}
			if req.ContentLength > limit {
				return &problem.Error{Code: problem.CodePayloadTooLarge, Detail: "the request body is larger than " + strconv.FormatInt(limit, 10) + " bytes"}
			}
			req.Body = http.MaxBytesReader(c.Response(), req.Body, limit)
			if bodiless(c.Path()) {
				if err := jsonbody.None(c); err != nil {
					return err
				}
			}
			return next(c)
		}
	}
}
