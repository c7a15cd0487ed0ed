package web_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
)

// allTiles is a line of all 28 tiles, each touching half matching its neighbour's: a walk
// that uses every edge of the complete graph on the pips 0 to 6, loops (the doubles) included,
// which exists because every pip meets the others an even number of times.
func allTiles() []string {
	used := map[[2]int]bool{}
	key := func(a, b int) [2]int { return [2]int{min(a, b), max(a, b)} }
	// Hierholzer's walk from pip 0: follow unused tiles, backing up where none is left.
	stack, walk := []int{0}, []int{}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		next := -1
		for w := 0; w <= 6; w++ {
			if !used[key(v, w)] {
				next = w
				break
			}
		}
		if next < 0 {
			walk = append(walk, v)
			stack = stack[:len(stack)-1]
			continue
		}
		used[key(v, next)] = true
		stack = append(stack, next)
	}
	line := make([]string, 0, 28)
	for i := 1; i < len(walk); i++ {
		line = append(line, fmt.Sprintf("%d-%d", walk[i-1], walk[i]))
	}
	return line
}

// tileSizes is what a drawn line measures: its layout, the doubles' way, and the time taken.
type tileSizes struct {
	lineLayout
	Crosswise bool      `json:"crosswise"` // every double stands across the line, the others along it
	BuildMs   []float64 `json:"buildMs"`   // drawLine and the layout it forces, per run
	FrameMs   []float64 `json:"frameMs"`   // drawLine to the next frame drawn, per run
}

// drawAll draws the line in #line runs times (the marked end alternating, so that each run
// lays the line out anew) and answers what the last one measures.
func drawAll(line []string, runs int) string {
	js, _ := json.Marshal(line)
	return fmt.Sprintf(`import("/assets/tiles.js").then(async (m) => {
  const box = document.getElementById("line");
  const build = [], frame = [];
  for (let i = 0; i < %d; i++) {
    const t0 = performance.now();
    m.drawLine(box, %s, i %% 2 ? "left" : "right");
    box.getBoundingClientRect();
    document.body.offsetHeight;
    build.push(performance.now() - t0);
    await new Promise((ok) => requestAnimationFrame(() => ok()));
    frame.push(performance.now() - t0);
  }
  const layout = %s;
  const crosswise = [...box.querySelectorAll(".line-tile")].every((t) => {
    const r = t.querySelector("svg").getBoundingClientRect();
    return t.classList.contains("double") ? r.height > r.width : r.width > r.height;
  });
  return JSON.stringify({ ...layout, crosswise, buildMs: build, frameMs: frame });
})`, runs, js, readLine)
}

// TestTilesReadAtAGlance measures the tiles as Chromium draws them, by their bounding boxes:
// at 1280 px wide and at 390 px, the line of all 28 tiles lies in its box in the line's order,
// bending into rows, doubles crosswise, each tile's short side at least 32 px (1280) or 24 px
// (390); the seat's hand is larger still, its playable tiles marked. It logs how long drawing
// the 28 tiles takes, from drawLine to the layout done and to the next frame.
func TestTilesReadAtAGlance(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	line := allTiles()
	if len(line) != 28 {
		t.Fatalf("the walk lays %d tiles", len(line))
	}
	finished := s.create(0, seed1, "bot:greedy", "bot:greedy").Match.ID
	seated := s.create(0, seed1, "Ann", "bot:greedy")
	tb := b.tab(false)
	rng := rand.New(rand.NewPCG(5, 8))
	for _, c := range []struct {
		width         int64
		line, hand    int
		rowsAtLeast   int
		describeWidth string
	}{{1280, 32, 44, 2, "a desktop"}, {390, 24, 38, 3, "a phone"}} {
		tb.do("the finished table", chromedp.EmulateViewport(c.width, 900), chromedp.Navigate(s.url+"/play/"+finished))
		poll[bool](tb, "the line drawn", `document.getElementById("table").dataset.status === "finished" && document.querySelectorAll("#line .line-tile").length > 0`)
		out, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](drawAll(line, 21), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("draw the 28 tiles: %v", err)
		}
		var got tileSizes
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Tiles, line) || !got.Ordered || !got.Crosswise {
			t.Errorf("at %d px the line reads %v in %d rows (in order: %v, doubles crosswise: %v), not %v", c.width, got.Tiles, got.Rows, got.Ordered, got.Crosswise, line)
		}
		if !got.Fits || got.PageWidth > int(c.width) || got.Rows < c.rowsAtLeast {
			t.Errorf("at %d px the 28 tiles are not all in their box in %d rows or more, or widen the page: %+v", c.width, c.rowsAtLeast, got.lineLayout)
		}
		if got.SmallestPx < c.line {
			t.Errorf("at %d px (%s) a tile of the line is %d px on its short side, under %d", c.width, c.describeWidth, got.SmallestPx, c.line)
		}
		slices.Sort(got.BuildMs)
		slices.Sort(got.FrameMs)
		t.Logf("%d px: 28 tiles in %d rows, short side %d px; drawLine and layout %.1f ms median (%.1f max), to the next frame %.1f ms median, over %d runs",
			c.width, got.Rows, got.SmallestPx, got.BuildMs[len(got.BuildMs)/2], got.BuildMs[len(got.BuildMs)-1], got.FrameMs[len(got.FrameMs)/2], len(got.BuildMs))

		// The hand: large, and in the seat's turn the playable tiles stand out.
		tb.do("the seat's table", chromedp.Navigate(s.url+"/play/"+seated.Match.ID))
		if c.width == 1280 {
			tb.takeSeat(s.url+"/play/"+seated.Match.ID, seated.Tokens[0].Token)
		}
		st := poll[tableState](tb, "Ann's turn", myTurn)
		// A lead plays any tile, and a seat with no play draws: go on to a turn where some tiles
		// fit and some do not.
		mixed := `!!document.querySelector("#hand button.tile:not(.legal)") && !!document.querySelector("#hand button.tile.legal")`
		for moves := 0; moves < 20 && !eval[bool](tb, mixed); moves++ {
			tb.playOne(rng)
			st = poll[tableState](tb, "Ann's turn", myTurn)
		}
		hand := eval[struct {
			Smallest int  `json:"smallest"`
			Marked   bool `json:"marked"`
		}](tb, `(() => {
  const bs = [...document.querySelectorAll("#hand button.tile")];
  const rs = bs.map((b) => b.querySelector("svg").getBoundingClientRect());
  const legal = bs.filter((b) => b.classList.contains("legal")), other = bs.filter((b) => !b.classList.contains("legal"));
  const lift = (b) => b.getBoundingClientRect().top;
  const marked = legal.every((b) => getComputedStyle(b).borderTopColor !== "rgba(0, 0, 0, 0)" && !b.disabled) &&
    other.every((b) => b.disabled && Number(getComputedStyle(b).opacity) < 0.6) &&
    legal.every((l) => other.filter((o) => o.offsetTop === l.offsetTop).every((o) => lift(l) < lift(o)));
  return { smallest: Math.round(Math.min(...rs.map((r) => Math.min(r.width, r.height)))), marked };
})()`)
		if hand.Smallest < c.hand || !hand.Marked || len(st.Legal) == 0 {
			t.Errorf("at %d px the hand's tiles are %d px on their short side (want %d or more), the playable %v marked apart: %v", c.width, hand.Smallest, c.hand, st.Legal, hand.Marked)
		}
	}
}
