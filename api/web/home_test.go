package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// setInput types a value into a field, firing its input event.
func setInput(id, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById(` + jsonString(id) + `); s.value = ` +
		jsonString(value) + `; s.dispatchEvent(new Event("input")); })()`)
}

// setSelect chooses an option of a select as a person would, firing its change event.
func setSelect(id, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById(` + jsonString(id) + `); s.value = ` +
		jsonString(value) + `; s.dispatchEvent(new Event("change")); })()`)
}

// TestHomeCreatesAndLists creates matches from the home page: a refused one shows the API's
// problem detail; one against a bot keeps the seat's token in the browser, so the table opens
// seated without asking for it; one of bots only links to its replay, and the list of finished
// matches links to it too.
func TestHomeCreatesAndLists(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	tb := b.tab(false)
	tb.expectConsole("status of 400")
	tb.do("open home", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("create")))
	tb.checkAccessible("home")
	tb.fitsWidth("home", 360)

	tb.do("a nameless player", setInput("name-0", ""), chromedp.Click(chromedp.CSS(`#create button[type=submit]`)))
	msg := poll[string](tb, "the problem", `!document.getElementById("error").hidden && document.getElementById("error").textContent`)
	if msg != "players[0].name must be 1 to 64 characters of UTF-8" {
		t.Errorf("the error shown is %q, not the problem's detail", msg)
	}

	tb.do("a match against a bot",
		setInput("name-0", "Ann"), setSelect("kind-1", "bot:greedy"), setInput("target", "50"),
		chromedp.Click(chromedp.CSS(`#create button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("table-link")),
	)
	if !eval[bool](tb, `document.getElementById("error").hidden`) {
		t.Error("the error stays after a create that worked")
	}
	tb.do("go to the table", chromedp.Click(chromedp.ID("table-link")), chromedp.WaitVisible(chromedp.ID("hand")))
	if who := eval[string](tb, `document.getElementById("seat-who").textContent`); who != "You are Ann (seat 0)." {
		t.Errorf("the table says %q", who)
	}
	if eval[string](tb, `location.href`) != s.url+"/play/"+eval[string](tb, `location.pathname.split("/")[2]`) || strings.Contains(eval[string](tb, `location.href`), "token") {
		t.Errorf("the table's address carries more than the match: %s", eval[string](tb, `location.href`))
	}

	tb.do("a match of bots",
		chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("create")),
		setSelect("kind-0", "bot:random"), setInput("seed", seed1),
		chromedp.Click(chromedp.CSS(`#create button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("replay-link")),
	)
	href := eval[string](tb, `document.getElementById("replay-link").getAttribute("href")`)
	listed := poll[string](tb, "the finished list", `document.querySelector("#finished a") && document.querySelector("#finished a").getAttribute("href")`)
	if listed != href {
		t.Errorf("the newest finished match links to %q, the create to %q", listed, href)
	}
	tb.do("open the replay", chromedp.Click(chromedp.ID("replay-link")), chromedp.WaitVisible(chromedp.ID("slider")))
	// A replay opened without ?step= starts at the first deal (seq 2), not the empty table of
	// match.created.
	poll[bool](tb, "the replay at the first deal", `document.getElementById("replay") && document.getElementById("replay").dataset.step === "2" && document.getElementById("event").textContent.startsWith("Hand 1 dealt")`)
}
