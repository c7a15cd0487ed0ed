package api

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/allfives/allfives/api/problem"
	echoSwagger "github.com/swaggo/echo-swagger"
	swaggerFiles "github.com/swaggo/files/v2"
)

// readyTimeout bounds the database ping of /readyz: a probe that hangs is worse than one
// that fails.
const readyTimeout = 2 * time.Second

// healthz says the process is up.
//
//	@Summary	Liveness
//	@ID			checkLiveness
//	@Tags		operations
//	@Produce	json
//	@Success	200	{object}	Status
//	@Router		/healthz [get]
func (s *server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, Status{Status: "ok"})
}

// readyz says whether the server can serve: the database answers.
//
//	@Summary	Readiness
//	@ID			checkReadiness
//	@Tags		operations
//	@Produce	json
//	@Produce	application/problem+json
//	@Success	200	{object}	Status
//	@Failure	503	{object}	Problem	"NOT_READY: the database does not answer, or cannot take writes (a full disk), or the server is shutting down"
//	@Router		/readyz [get]
func (s *server) readyz(c echo.Context) error {
	if s.drain != nil && s.drain() {
		return &problem.Error{Code: problem.CodeNotReady, Detail: "the server is shutting down", RetryAfter: 5}
	}
	if s.ready != nil {
		ctx, cancel := context.WithTimeout(c.Request().Context(), readyTimeout)
		defer cancel()
		if err := s.ready.Ping(ctx); err != nil {
			s.logger(c).Warn("not ready", "err", err)
			return &problem.Error{Code: problem.CodeNotReady, Detail: "the database does not answer, or cannot take writes", RetryAfter: 5}
		}
	}
	return c.JSON(http.StatusOK, Status{Status: "ready"})
}

// metricsEndpoint serves the Prometheus metrics.
//
//	@Summary		Prometheus metrics
//	@ID				getMetrics
//	@Description	Requests by route and status, latency, moves, live matches, and the Go runtime's series, in the Prometheus text format.
//	@Tags			operations
//	@Produce		plain
//	@Success		200	{string}	string	"the metrics"
//	@Router			/metrics [get]
func (s *server) metricsEndpoint(h http.Handler) echo.HandlerFunc {
	return echo.WrapHandler(h)
}

// openAPI serves the OpenAPI 3 document.
//
//	@Summary	OpenAPI 3 document
//	@ID			getOpenAPI
//	@Tags		operations
//	@Produce	application/yaml
//	@Produce	application/problem+json
//	@Success	200	{object}	map[string]any	"the document, in YAML"
//	@Router		/openapi.yaml [get]
func (s *server) openAPI(c echo.Context) error {
	doc, err := openAPIDoc()
	if err != nil {
		return fmt.Errorf("openapi document: %w", err)
	}
	return c.Blob(http.StatusOK, "application/yaml", doc)
}

// swaggerUI serves Swagger UI under /swagger/. echo-swagger alone answers a missing file with
// the file server's text/plain 404, not a problem, and redirects /swagger/ to
// /swagger//index.html; this serves only what it has and answers the rest as any unknown path.
//
// Its definition menu offers the OpenAPI 3 document first, so that is what it opens: only that
// one says who may call what, which media type each answer has, and the true example of each
// error. The Swagger 2.0 document swag writes stays second, for tools that read only 2.0.
func swaggerUI() echo.HandlerFunc {
	ui := echoSwagger.EchoWrapHandler(func(c *echoSwagger.Config) {
		c.URLs = []string{"/openapi.yaml", "doc.json"}
	})
	return func(c echo.Context) error {
		name := c.Param("*")
		switch {
		case name == "":
			return c.Redirect(http.StatusMovedPermanently, "/swagger/index.html")
		case name == "doc.json" || name == "doc.yaml":
			return swaggerDocument(c, name)
		case name == "index.html":
		case !fs.ValidPath(name):
			return echo.ErrNotFound
		default:
			if info, err := fs.Stat(swaggerFiles.FS, name); err != nil || info.IsDir() {
				return echo.ErrNotFound
			}
		}
		// echo-swagger takes the file name from RequestURI, query string included, and
		// rewrites URL.Path: give it a copy holding the bare path, so that the access log
		// still sees the request as it came.
		req := c.Request()
		cp := req.Clone(req.Context())
		cp.RequestURI = req.URL.Path
		c.SetRequest(cp)
		defer c.SetRequest(req)
		return ui(c)
	}
}

// swaggerDocument answers the Swagger 2.0 document, as JSON or YAML, read once: echo-swagger
// would call swag.ReadDoc for each request, and ReadDoc writes to the registered document on
// every call, so two requests at once raced.
func swaggerDocument(c echo.Context, name string) error {
	if name == "doc.yaml" {
		doc, err := swaggerYAML()
		if err != nil {
			return fmt.Errorf("swagger document: %w", err)
		}
		return c.Blob(http.StatusOK, "text/plain; charset=utf-8", doc)
	}
	doc, err := swaggerDoc()
	if err != nil {
		return fmt.Errorf("swagger document: %w", err)
	}
	return c.Blob(http.StatusOK, "application/json; charset=utf-8", []byte(doc))
}
