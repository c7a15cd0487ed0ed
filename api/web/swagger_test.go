package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestSwaggerUIRendersUnderItsPolicy opens Swagger UI in Chromium under the policy the server
// sends for /swagger/ (api/swaggercsp.go): the operations list renders from /openapi.yaml, the
// page's inline style block and the style attribute of its hidden SVG sprite take effect (they
// are allowed by hash), and the browser reports no policy violation, neither as a
// securitypolicyviolation event nor on the console (the tab fails the test on any console
// error).
func TestSwaggerUIRendersUnderItsPolicy(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	tb := b.tab(false)
	// Injected by the browser before any script of the page, and not subject to its policy.
	if _, err := chromedp.Call(tb.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.violations = []; document.addEventListener("securitypolicyviolation",
			e => window.violations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber));`,
	}); err != nil {
		t.Fatal(err)
	}
	tb.do("open Swagger UI", chromedp.Navigate(s.url+"/swagger/index.html"))
	n := poll[int](tb, "the operations list", `document.querySelectorAll(".opblock").length`)
	if n < 10 {
		t.Errorf("%d operations rendered", n)
	}
	paths := eval[string](tb, `[...document.querySelectorAll(".opblock-summary-path")].map(e => e.textContent).join(" ")`)
	if !strings.Contains(paths, "/api/v1/matches/{id}/moves") {
		t.Errorf("the operations list lacks the moves route: %s", paths)
	}
	if got := eval[string](tb, `getComputedStyle(document.body).backgroundColor`); got != "rgb(250, 250, 250)" {
		t.Errorf("the page's inline style block was not applied: body background %s", got)
	}
	if got := eval[string](tb, `getComputedStyle(document.querySelector("body > svg")).position`); got != "absolute" {
		t.Errorf("the SVG sprite's style attribute was not applied: position %s", got)
	}
	// Open an operation: its parameters and responses render through the same scripts.
	tb.do("open an operation", chromedp.Click(chromedp.CSS(`.opblock-summary`)), chromedp.WaitVisible(chromedp.CSS(`.opblock-body`)))
	if v := eval[[]string](tb, `window.violations`); len(v) > 0 {
		t.Errorf("policy violations: %v", v)
	}
	csp, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`fetch("/swagger/index.html").then(r => r.headers.get("Content-Security-Policy"))`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("the page was not served under the policy: %q %v", csp, err)
	}
}
