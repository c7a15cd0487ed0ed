// Package web is the browser client (docs/api-web.md, "The web client"): plain HTML, CSS and
// JavaScript embedded in the binary, with nothing to build. Its pages use only the public API
// under /api/v1, from the same origin.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"
)

//go:embed static
var files embed.FS

// static is the client's files, rooted at static/.
var static = func() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the directory is embedded above, so this cannot happen
	}
	return sub
}()

// contentSecurity keeps every page to its own origin: no script, style, image or connection
// elsewhere, and no inline script, so a name that slipped past escaping still could not run.
const contentSecurity = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Register adds the client's routes: the home page at /, the table at /play/{id}, the replay
// viewer at /replay/{id}, a format's leaderboard at /leaderboard/{format}, a player's page at
// /player/{id} (the page; the API's is /api/v1/players/{id}), the tournaments at /tournaments and
// one at /tournaments/{id}, the puzzles at /puzzles, and the files they load under
// /assets/. An unknown asset is the server's usual 404 problem.
func Register(e *echo.Echo) {
	e.GET("/", page("index.html"))
	e.GET("/play/:id", page("play.html"))
	// Without an id the table's page says there is no match to show, rather than a problem.
	e.GET("/play", page("play.html"))
	e.GET("/play/", page("play.html"))
	e.GET("/replay/:id", page("replay.html"))
	e.GET("/leaderboard/:format", page("leaderboard.html"))
	e.GET("/player/:id", page("profile.html"))
	e.GET("/rules", page("rules.html"))
	e.GET("/tournaments", page("tournaments.html"))
	e.GET("/tournaments/:id", page("tournament.html"))
	e.GET("/puzzles", page("puzzles.html"))
	e.GET("/assets/*", asset)
}

// head is the beginning every page shares, up to its own script: the document's language,
// encoding, viewport, title, icon and style sheet. A page's file holds the rest, from its
// script on; page serves the two as one document.
var head = func() []byte {
	b, err := fs.ReadFile(static, "head.html")
	if err != nil {
		panic(err) // the file is embedded above, so this cannot happen
	}
	return b
}()

// page serves one HTML page: head, then the page's own file. The match id stays in the path,
// where the page's script reads it; the page itself is the same for every match.
func page(name string) echo.HandlerFunc {
	return func(c echo.Context) error {
		rest, err := fs.ReadFile(static, name)
		if err != nil {
			return err
		}
		body := append(append(make([]byte, 0, len(head)+len(rest)), head...), rest...)
		h := c.Response().Header()
		h.Set("Content-Security-Policy", contentSecurity)
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		return c.HTMLBlob(http.StatusOK, body)
	}
}

// asset serves a script, style sheet or image; HTML pages are served only by their routes.
func asset(c echo.Context) error {
	name := c.Param("*")
	if !fs.ValidPath(name) || strings.HasSuffix(name, ".html") {
		return echo.ErrNotFound
	}
	body, err := fs.ReadFile(static, name)
	if err != nil {
		return echo.ErrNotFound
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	return c.Blob(http.StatusOK, contentType(name), body)
}

// contentType names the types of the files the client has; anything else is plain bytes.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".json":
		return "application/json"
	}
	return "application/octet-stream"
}
