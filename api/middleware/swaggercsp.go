package middleware

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
	"golang.org/x/net/html"
)

// Swagger UI is served from the web client's origin, where seat tokens live in localStorage
// (docs/api-web.md, "The web client"), so a script injected into its pages could read them. Its
// pages therefore get a policy as strict as Swagger UI allows: scripts, styles, images and
// connections from this origin only, no frames of it anywhere.
//
// echo-swagger's index page needs three things inline: the script that starts Swagger UI, a
// <style> block, and a style attribute on its hidden SVG sprite. They are allowed by their
// hashes, never by 'unsafe-inline'; the attribute needs 'unsafe-hashes', which lets that exact
// attribute value (position:absolute;width:0;height:0) through and nothing else. Images
// allow data: because swagger-ui.css draws its icons from data: URLs. The hashes are taken
// from the page as echo-swagger renders it, once, when the server starts: the page depends on
// no request, so the policy matches every copy served, and an update of echo-swagger cannot
// leave a stale hash behind.

// SwaggerSecurity sets the policy and the framing and sniffing headers on every answer under
// /swagger/, the page, its assets and its errors alike.
func SwaggerSecurity(ui echo.HandlerFunc) echo.MiddlewareFunc {
	policy := swaggerPolicy(swaggerIndex(ui))
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			h.Set("Content-Security-Policy", policy)
			h.Set("X-Frame-Options", "DENY")
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "no-referrer")
			return next(c)
		}
	}
}

// swaggerIndex renders Swagger UI's index page through its handler.
func swaggerIndex(ui echo.HandlerFunc) []byte {
	e := echo.New()
	req := httptest.NewRequest(http.MethodGet, "/swagger/index.html", nil)
	rec := httptest.NewRecorder()
	c := e.NewContext(req, rec)
	c.SetParamNames("*")
	c.SetParamValues("index.html")
	if err := ui(c); err != nil || rec.Code != http.StatusOK {
		panic("render Swagger UI's index page: " + rec.Result().Status) // embedded files: cannot happen
	}
	return rec.Body.Bytes()
}

// swaggerPolicy is the Content-Security-Policy that allows page's inline scripts, style
// blocks and style attributes by their hashes, and nothing else inline.
func swaggerPolicy(page []byte) string {
	var scripts, styles, attrs []string
	z := html.NewTokenizer(bytes.NewReader(page))
	inline := "" // the raw-text element whose text comes next: "script" (without src) or "style"
	for {
		switch z.Next() {
		case html.ErrorToken:
			script := "script-src 'self'" + join(scripts)
			style := "style-src 'self'" + join(styles)
			if len(attrs) > 0 {
				style += " 'unsafe-hashes'" + join(attrs)
			}
			return "default-src 'none'; " + script + "; " + style + "; img-src 'self' data:; " +
				"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			inline = ""
			if tok.Data == "style" || tok.Data == "script" && !slices.ContainsFunc(tok.Attr, isSrc) {
				inline = tok.Data
			}
			for _, a := range tok.Attr {
				if a.Key == "style" {
					attrs = appendNew(attrs, cspHash(a.Val))
				}
			}
		case html.TextToken:
			switch inline {
			case "script":
				scripts = appendNew(scripts, cspHash(string(z.Text())))
			case "style":
				styles = appendNew(styles, cspHash(string(z.Text())))
			}
			inline = ""
		default:
			inline = ""
		}
	}
}

func isSrc(a html.Attribute) bool { return a.Key == "src" }

// cspHash is the source expression that allows text by its SHA-256.
func cspHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func join(sources []string) string {
	if len(sources) == 0 {
		return ""
	}
	return " " + strings.Join(sources, " ")
}
