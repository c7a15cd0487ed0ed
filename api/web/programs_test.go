package web_test

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
)

// checkProgramsBoard (in TestRatingsPages, on a 2p board of three rows a page): the bots'
// rows are marked as programs, and the board's choice of players keeps only the programs,
// each marked, and then only the people.
func checkProgramsBoard(t *testing.T, tb *tab, board []api.LeaderboardEntry, ada string) {
	t.Helper()
	for _, e := range board {
		if e.Player.Program != (e.Player.ID != ada && len(e.Player.ID) > 4 && e.Player.ID[:4] == "bot-") {
			t.Errorf("the API marks %s program %v", e.Player.ID, e.Player.Program)
		}
	}
	tb.do("the programs' board", chromedp.Click(chromedp.CSS(`#players-filter a[data-players="programs"]`)))
	pollAcross[bool](tb, "the programs' board", `location.search.includes("players=programs") && document.getElementById("leaderboard").dataset.loaded === "1" && document.querySelector("#board-rows tr") !== null`)
	rows := eval[[]boardRow](tb, boardRows)
	for _, r := range rows {
		if !r.Program || r.Player == ada {
			t.Errorf("the programs' board shows %+v", r)
		}
	}
	if cur := eval[string](tb, `document.querySelector("#players-filter a[aria-current=page]").dataset.players`); cur != "programs" || len(rows) == 0 {
		t.Errorf("the programs' board: current choice %q, %d rows", cur, len(rows))
	}
	tb.do("the people's board", chromedp.Click(chromedp.CSS(`#players-filter a[data-players="humans"]`)))
	pollAcross[bool](tb, "the people's board", `location.search.includes("players=humans") && document.getElementById("leaderboard").dataset.loaded === "1"`)
	people, adaShown := eval[[]boardRow](tb, boardRows), false
	for _, r := range people {
		adaShown = adaShown || r.Player == ada
		if r.Program {
			t.Errorf("the people's board shows a program: %+v", r)
		}
	}
	if !adaShown {
		t.Errorf("the people's board does not show Ada, who is ranked: %+v", people)
	}
	tb.do("everyone's board", chromedp.Click(chromedp.CSS(`#players-filter a[data-players="all"]`)))
	pollAcross[bool](tb, "everyone's board", `!location.search.includes("players=") && document.getElementById("leaderboard").dataset.loaded === "1"`)
}
