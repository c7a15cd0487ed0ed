package web_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
)

// lineLayout is how the line of tiles lies in its box.
type lineLayout struct {
	Tiles      []string `json:"tiles"`
	Rows       int      `json:"rows"`       // rows of the line
	Ordered    bool     `json:"ordered"`    // the rows top to bottom, each in its direction
	Fits       bool     `json:"fits"`       // the whole line within the box: both ends in view
	PageWidth  int      `json:"pageWidth"`  // the page's scroll width
	SmallestPx int      `json:"smallestPx"` // the narrowest side of a tile
}

// readLine reads the line as drawn: row by row, a row after the first running back the other
// way, as a line of dominoes bends on a table; the order is the line's own, end to end.
const readLine = `(() => {
  const box = document.getElementById("line");
  const rows = [...box.querySelectorAll(".line-row")];
  let ordered = true, prevBottom = -Infinity;
  const tiles = [];
  rows.forEach((row, n) => {
    const rs = [...row.querySelectorAll(".line-tile")].map((t) => { tiles.push(t); return t.getBoundingClientRect(); });
    const top = Math.min(...rs.map((r) => r.top)), bottom = Math.max(...rs.map((r) => r.bottom));
    if (top < prevBottom) ordered = false;
    prevBottom = bottom;
    for (let i = 1; i < rs.length; i++) {
      if (n % 2 === 0 ? rs[i].left < rs[i - 1].right - 0.5 : rs[i].right > rs[i - 1].left + 0.5) ordered = false;
    }
    if (row.classList.contains("back") !== (n % 2 === 1)) ordered = false;
  });
  const b = box.getBoundingClientRect();
  const rects = tiles.map((t) => t.getBoundingClientRect());
  return {
    tiles: tiles.map((t) => t.dataset.tile),
    rows: rows.length,
    ordered,
    fits: box.scrollWidth <= box.clientWidth && rects.every((r) => r.left >= b.left - 0.5 && r.right <= b.right + 0.5),
    pageWidth: document.documentElement.scrollWidth,
    smallestPx: Math.round(Math.min(...rects.map((r) => Math.min(r.width, r.height)))),
  };
})()`

// TestLineReadsLeftToRightAtAnyWidth opens the replay at its longest line and, at a desktop's
// width and a phone's, checks that the whole line is in its box (both ends in view) in the
// API's order: one row left to right where it fits, else bending back row by row, never
// pushing the page wider than the screen, and its tiles large enough to read at a glance.
func TestLineReadsLeftToRightAtAnyWidth(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	m := s.create(250, seed1, "bot:greedy", "bot:greedy").Match
	var exp api.ExportResponse
	s.call("GET", "/api/v1/matches/"+m.ID+"/export", "", nil, &exp)
	longest, step := 0, 1
	for n := 1; n <= exp.Match.Version; n += 3 {
		var r api.ReplayResponse
		s.call("GET", fmt.Sprintf("/api/v1/matches/%s/replay?step=%d", m.ID, n), "", nil, &r)
		if r.Match.Hand != nil && len(r.Match.Hand.Line) > longest {
			longest, step = len(r.Match.Hand.Line), n
		}
	}
	var at api.ReplayResponse
	s.call("GET", fmt.Sprintf("/api/v1/matches/%s/replay?step=%d", m.ID, step), "", nil, &at)
	if longest < 10 {
		t.Fatalf("the longest line of the match has %d tiles", longest)
	}
	tb := b.tab(false)
	for _, width := range []int64{1280, 390, 320} {
		tb.do("the replay", chromedp.EmulateViewport(width, 844), chromedp.Navigate(fmt.Sprintf("%s/replay/%s?step=%d", s.url, m.ID, step)))
		got := poll[lineLayout](tb, "the line", fmt.Sprintf(`document.getElementById("replay").dataset.step === "%d" && document.querySelectorAll("#line .line-tile").length === %d && %s`, step, longest, readLine))
		if fmt.Sprint(got.Tiles) != fmt.Sprint(at.Match.Hand.Line) || !got.Ordered {
			t.Errorf("at %d px the line reads %v in %d rows (in order: %v), the API's %v", width, got.Tiles, got.Rows, got.Ordered, at.Match.Hand.Line)
		}
		if !got.Fits || got.PageWidth > int(width) {
			t.Errorf("at %d px the line is not all in its box, or widens the page: %+v", width, got)
		}
		// Read at a glance (docs/api-web.md, "The web client"): 32 px on the short side at a desktop's width, 24 on a phone's.
		least := 24
		if width == 1280 {
			least = 32
		}
		if got.SmallestPx < least {
			t.Errorf("at %d px a tile is %d px across, under %d: too small to read at a glance", width, got.SmallestPx, least)
		}
		t.Logf("%d px: %d tiles in %d rows, smallest side %d px", width, longest, got.Rows, got.SmallestPx)
	}
}
