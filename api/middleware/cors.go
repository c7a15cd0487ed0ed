package middleware

import (
	"net/http"

	"github.com/labstack/echo/v4"
	echomw "github.com/labstack/echo/v4/middleware"
)

// CORS lets browser clients on the given origins call the API (docs/api.md, "Playing with
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
