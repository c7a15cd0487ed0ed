package web_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/allfives/allfives/api"
)

// signedIn is a player made through the API, and a tab of the browser signed in as it (its
// key kept where the page keeps it, as signing in on the home page does).
func (s *site) signedIn(b *browser, name string, isolated bool) (*tab, api.CreatePlayerResponse) {
	s.t.Helper()
	var p api.CreatePlayerResponse
	s.call("POST", "/api/v1/players", "", api.CreatePlayerRequest{Name: name}, &p)
	tb := b.tab(isolated)
	tb.do("sign "+name+" in", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("key-input")),
		setInput("key-input", p.Key), chromedp.Click(chromedp.CSS(`#signin button[type=submit]`)), chromedp.WaitVisible(chromedp.ID("signed-in")))
	return tb, p
}

// TestSignedInRatedMatchAgainstABot: a player signed in creates a match against the expert bot
// from the home page; its seat is bound to the player (under its name, not "You"), the Rated
// choice makes it rated, and the table says who you are. Resigning asks first, and the match
// then ends with the bot's win, which "Your matches" says from the player's side.
func TestSignedInRatedMatchAgainstABot(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	ada, p := s.signedIn(b, "Ada", false)
	poll[bool](ada, "the form with the player's own seat", `document.getElementById("kind-0").value === "me" && !document.getElementById("rated-box").hidden`)
	ada.do("a rated match against the expert",
		chromedp.Click(chromedp.ID("create-rated")),
		chromedp.Click(chromedp.CSS(`#create button[type=submit]`)),
		chromedp.WaitVisible(chromedp.ID("table-link")),
		chromedp.Click(chromedp.ID("table-link")),
		chromedp.WaitVisible(chromedp.ID("hand")))
	id := eval[string](ada, `location.pathname.split("/")[2]`)
	v := s.view(id, p.Key)
	if !v.Rated || v.You == nil || v.Seats[0].Player != p.Player.ID || v.Seats[0].Name != "Ada" || v.Seats[1].Kind != "bot" {
		t.Fatalf("the match made from the page: rated %v, you %+v, seats %+v", v.Rated, v.You, v.Seats)
	}
	if who := poll[string](ada, "who you are", `document.getElementById("seat-who").textContent`); who != "You are Ada (seat 0)." {
		t.Errorf("the table says %q", who)
	}
	if !eval[bool](ada, `!document.getElementById("rated").hidden`) {
		t.Error("the table does not say the match is rated")
	}
	ada.checkAxe("a signed-in table")

	// Resign asks first; "Keep playing" keeps playing, "Yes, resign" resigns.
	ada.do("resign, then think again", chromedp.Click(chromedp.ID("resign")), chromedp.WaitVisible(chromedp.ID("resign-yes")), chromedp.Click(chromedp.ID("resign-no")))
	if s.view(id, "").Status != "in_progress" || !eval[bool](ada, `document.getElementById("resign-confirm").hidden`) {
		t.Fatal("keep playing did not keep playing")
	}
	ada.do("resign", chromedp.Click(chromedp.ID("resign")), chromedp.WaitVisible(chromedp.ID("resign-yes")), chromedp.Click(chromedp.ID("resign-yes")))
	poll[bool](ada, "the end screen", `document.getElementById("table").dataset.status === "finished" && !document.getElementById("result").hidden`)
	end := s.view(id, "")
	if end.Status != "finished" || end.WinnerSide == nil || *end.WinnerSide != 1 || !end.Seats[0].Resigned {
		t.Fatalf("after resigning the match is %s, winner %v, seat 0 %+v", end.Status, end.WinnerSide, end.Seats[0])
	}
	text := eval[string](ada, `document.getElementById("result-text").textContent`)
	if want := fmt.Sprintf("You lost %d to %d against %s.", end.Scores[0], end.Scores[1], end.Seats[1].Name); !strings.HasPrefix(text, want) || !strings.Contains(text, "resigned") {
		t.Errorf("the end screen says %q, want %q and the resignation", text, want)
	}
	ada.do("home", chromedp.Navigate(s.url+"/"))
	item := poll[string](ada, "the match in Your matches", fmt.Sprintf(`(document.querySelector('#my-matches li[data-id=%q]') || {}).textContent`, id))
	if want := fmt.Sprintf("Lost %d to %d against %s", end.Scores[0], end.Scores[1], end.Seats[1].Name); !strings.HasPrefix(item, want) {
		t.Errorf("Your matches lists %q, want %q", item, want)
	}
}

// TestChallengeDeclinedAndWithdrawn: across two browser contexts, Cy challenges Dee; Cy's table
// says it waits for Dee by name, and Dee declines from her table; then Cy challenges again and
// withdraws from his list of offers. Each ends cancelled, and both pages say so.
func TestChallengeDeclinedAndWithdrawn(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	cy, _ := s.signedIn(b, "Cy", false)
	dee, _ := s.signedIn(b, "Dee", true)
	challenge := func() string {
		cy.do("challenge Dee", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("opponent")),
			setInput("opponent", "Dee"), chromedp.Click(chromedp.CSS(`#challenge button[type=submit]`)), chromedp.WaitVisible(chromedp.ID("hand")))
		return pollAcross[string](cy, "the challenge's table", `document.getElementById("table").dataset.status === "waiting" && location.pathname.split("/")[2]`)
	}
	id := challenge()
	if turn := poll[string](cy, "what the table waits for", `document.getElementById("turn").textContent`); turn != "Waiting for Dee. Dee has not answered yet." {
		t.Errorf("the challenger's table says %q", turn)
	}
	cy.checkAxe("a challenge's table")
	dee.do("Dee opens the challenge", chromedp.Navigate(s.url+"/play/"+id), chromedp.WaitVisible(chromedp.ID("decline")))
	dee.checkAxe("a challenged table")
	dee.do("decline", chromedp.Click(chromedp.ID("decline")))
	poll[bool](dee, "cancelled", `document.getElementById("table").dataset.status === "cancelled" && document.getElementById("turn").textContent === "The match is cancelled: Dee declined."`)
	poll[bool](cy, "the challenger hears it", `document.getElementById("table").dataset.status === "cancelled"`)
	if v := s.view(id, ""); v.Status != "cancelled" || v.Cancelled == nil || v.Cancelled.Reason != "declined" {
		t.Fatalf("after declining the match is %s %+v", v.Status, v.Cancelled)
	}

	id = challenge()
	cy.do("home", chromedp.Navigate(s.url+"/"))
	offer := fmt.Sprintf(`#my-offers li[data-id=%q]`, id)
	if text := poll[string](cy, "the offer listed", fmt.Sprintf(`(document.querySelector(%s) || {}).textContent`, jsonString(offer))); !strings.HasPrefix(text, "Waiting for Dee. Dee has not answered yet.") {
		t.Errorf("the offer reads %q", text)
	}
	dee.do("Dee's home", chromedp.Navigate(s.url+"/"))
	poll[bool](dee, "the challenge listed for Dee", fmt.Sprintf(`!!document.querySelector('#my-challenges li[data-id=%q] button.decline')`, id))
	dee.checkAxe("home with a challenge")
	cy.clickWhen("withdraw", offer+" button.withdraw")
	poll[bool](cy, "the offer gone", fmt.Sprintf(`!document.querySelector(%s)`, jsonString(offer)))
	if v := s.view(id, ""); v.Status != "cancelled" || v.Cancelled == nil || v.Cancelled.Reason != "withdrawn" {
		t.Fatalf("after withdrawing the match is %s %+v", v.Status, v.Cancelled)
	}
	poll[bool](dee, "the challenge gone for Dee", fmt.Sprintf(`!document.querySelector('#my-challenges li[data-id=%q]')`, id))
}

// tabTo presses Tab until the element the selector names has the focus, as a keyboard user
// moves through a page; it fails when the element is never reached.
func (tb *tab) tabTo(selector string) {
	tb.t.Helper()
	is := `(() => { const e = document.querySelector(` + jsonString(selector) + `); return !!e && e === document.activeElement; })()`
	for range 200 {
		if eval[bool](tb, is) {
			return
		}
		tb.do("Tab", chromedp.KeyEvent(kb.Tab))
	}
	tb.t.Fatalf("the keyboard never reaches %s", selector)
}

// TestKeyboardOnlyMatch creates a match and plays it to its end with the keyboard alone: Tab
// to each control and Enter (or type), from the home page's form to the end screen. Each move
// of the bot is said in the table's live region.
func TestKeyboardOnlyMatch(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	tb := b.tab(false)
	tb.do("home", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("create")))
	tb.tabTo("#target")
	tb.do("type the target", chromedp.KeyEvent("20"))
	tb.tabTo(`#create button[type=submit]`)
	tb.do("create", chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(chromedp.ID("table-link")))
	tb.tabTo("#table-link")
	tb.do("go to the table", chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(chromedp.ID("hand")))
	// Everything the live region says, as a screen reader would hear it.
	eval[bool](tb, `(() => { const a = document.getElementById("announce"); window.said = [a.textContent];
  new MutationObserver(() => window.said.push(a.textContent)).observe(a, { childList: true, characterData: true, subtree: true }); return true; })()`)
	for moves := 0; ; moves++ {
		if moves > 300 {
			t.Fatal("the match did not end")
		}
		st := poll[tableState](tb, "my turn", myTurn)
		if st.Status == "finished" {
			break
		}
		switch {
		case len(st.Legal) > 0:
			tb.tabTo(fmt.Sprintf(`#hand button[data-tile=%q]`, st.Legal[0]))
			tb.do("Enter on "+st.Legal[0], chromedp.KeyEvent(kb.Enter))
			if eval[bool](tb, `!document.getElementById("end-choice").hidden`) {
				tb.do("Enter on the end offered first", chromedp.KeyEvent(kb.Enter))
			}
		case st.Draw:
			tb.tabTo("#draw")
			tb.do("Enter on draw", chromedp.KeyEvent(kb.Enter))
		case st.Pass:
			tb.tabTo("#pass")
			tb.do("Enter on pass", chromedp.KeyEvent(kb.Enter))
		}
		poll[bool](tb, "the move's answer", fmt.Sprintf(
			`document.getElementById("table").dataset.busy === "0" && document.getElementById("table").dataset.version !== "%d"`, st.Version))
	}
	heard := eval[[]string](tb, `window.said`)
	botMoved := regexp.MustCompile(`Expert (leads|plays|draws|passes)`)
	if !slices.ContainsFunc(heard, botMoved.MatchString) {
		t.Errorf("the live region never said a move of the bot: %q", heard)
	}
	if eval[string](tb, `document.getElementById("announce").getAttribute("aria-live")`) != "polite" {
		t.Error("the announcements are not a live region")
	}
	tb.tabTo("#replay-link")
}
