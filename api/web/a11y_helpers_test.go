package web_test

import (
	"time"

	"github.com/chromedp/chromedp"
)

// accessibilityProblems lists, in the page, every visible control without a label or name,
// every domino without a title, and images without alt text.
const accessibilityProblems = `(() => {
  const bad = [];
  const visible = (e) => e.offsetParent !== null || e.getClientRects().length > 0;
  for (const e of document.querySelectorAll("input, select, textarea")) {
    if (e.type === "hidden" || !visible(e)) continue;
    if (!(e.labels && e.labels.length) && !e.getAttribute("aria-label")) bad.push("unlabelled " + e.outerHTML.slice(0, 80));
  }
  for (const e of document.querySelectorAll("button, a")) {
    if (!visible(e)) continue;
    if (!(e.textContent.trim() || e.getAttribute("aria-label") || e.title)) bad.push("nameless " + e.outerHTML.slice(0, 80));
  }
  for (const e of document.querySelectorAll("svg.domino")) {
    // A tile on a button is named by the button (its label says the tile and its plays).
    if (e.getAttribute("aria-hidden") === "true" && e.closest("button[aria-label]")) continue;
    const t = e.querySelector("title");
    if (!t || !t.textContent || !e.getAttribute("aria-label")) bad.push("untitled tile");
  }
  for (const e of document.querySelectorAll("img")) if (!e.alt) bad.push("img without alt");
  return bad;
})()`

// checkAccessible fails on unlabelled controls and untitled tiles, and checks that a control
// reached by the keyboard shows a visible focus outline.
func (tb *tab) checkAccessible(page string) {
	tb.t.Helper()
	if bad := eval[[]string](tb, accessibilityProblems); len(bad) > 0 {
		tb.t.Errorf("%s: accessibility: %v", page, bad)
	}
	tb.do("tab to a control", chromedp.KeyEvent("\t"))
	outline := eval[string](tb, `(() => { const e = document.activeElement; if (!e || e === document.body) return "no focus"; return getComputedStyle(e).outlineStyle; })()`)
	if outline == "none" || outline == "no focus" {
		tb.t.Errorf("%s: the focused control shows no outline (%s)", page, outline)
	}
}

// fitsWidth checks that the page needs no sideways scrolling at a phone's width (844 px high, a
// phone held upright), and that every control there is at least 24 px in both directions.
func (tb *tab) fitsWidth(page string, width int64) {
	tb.t.Helper()
	tb.do("phone width", chromedp.EmulateViewport(width, 844), chromedp.Sleep(100*time.Millisecond))
	if got := eval[int64](tb, `document.documentElement.scrollWidth`); got > width {
		tb.t.Errorf("%s is %d px wide at a %d px screen", page, got, width)
	}
	small := eval[[]string](tb, `[...document.querySelectorAll("button, select, input, summary")].filter((e) => {
  if (!(e.offsetParent !== null || e.getClientRects().length > 0) || e.type === "hidden") return false;
  const r = e.getBoundingClientRect();
  return r.width < 24 || r.height < 24;
}).map((e) => (e.id || e.outerHTML.slice(0, 60)) + " " + Math.round(e.getBoundingClientRect().width) + "x" + Math.round(e.getBoundingClientRect().height))`)
	if len(small) > 0 {
		tb.t.Errorf("%s: controls smaller than 24 px at %d px wide: %v", page, width, small)
	}
	tb.do("desktop width", chromedp.EmulateViewport(1280, 900))
}
