package middleware

import (
	"net"
	"net/http"

	"github.com/labstack/echo/v4"
	echomw "github.com/labstack/echo/v4/middleware"
)

// CORS lets browser clients on the given origins call the API (docs/api-matches.md, "Playing with
// others"): the request headers the API reads and the response headers it sets are allowed and
// exposed. Seat tokens travel in Authorization, not cookies, so credentials stay off.
func CORS(origins []string) echo.MiddlewareFunc {
	return echomw.CORSWithConfig(echomw.CORSConfig{
		AllowOrigins: origins,
		AllowMethods: []string{http.MethodGet, http.MethodPost, http.MethodOptions},
		AllowHeaders: []string{
			echo.HeaderAuthorization, echo.HeaderContentType, "If-Match", "If-None-Match",
			"Idempotency-Key", "Last-Event-ID",
		},
		ExposeHeaders: []string{
			"ETag", echo.HeaderLocation, "Retry-After", "Idempotent-Replayed", echo.HeaderXRequestID,
		},
		MaxAge: 600,
	})
}

// ClientAddress is how the server tells a request's client (the address its limits count
// against, and its access log shows). Without trusted proxies it is the connection's address:
// trusting X-Forwarded-For would let anyone choose their own bucket. With them, a request from
// a trusted proxy counts against the address that proxy forwards for: the rightmost address
// of X-Forwarded-For that is not itself a trusted proxy. Echo's own trust of loopback, link-local
// and private addresses is off: only the ranges given are trusted.
func ClientAddress(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}
