package web_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
)

// TestProgramMarkedOnItsPage: a player the API says is a program ("program": true) is marked
// as one on its page, beside its name and in words, in English and Dutch; a person is not. The
// page passes axe-core either way.
func TestProgramMarkedOnItsPage(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	var engine, person api.CreatePlayerResponse
	s.call("POST", "/api/v1/players", "", api.CreatePlayerRequest{Name: "Deep Five"}, &engine)
	s.call("POST", "/api/v1/players", "", api.CreatePlayerRequest{Name: "Ada"}, &person)
	tb := b.tab(false)
	tb.asProgram(engine.Player.ID)
	mark := `document.getElementById("profile").dataset.loaded === "1" && [(document.getElementById("program-mark") || {}).textContent || "", (document.getElementById("program-note") || {}).textContent || "", document.getElementById("player-name").textContent]`
	for _, c := range []struct{ lang, mark, note string }{
		{"en", "program", " A program: its moves are made by a computer program connected to the server, not by a person."},
		{"nl", "programma", " Een programma: zijn zetten doet een computerprogramma dat met de server verbonden is, geen mens."},
	} {
		tb.do("the program's page", chromedp.Navigate(s.url+"/player/"+engine.Player.ID))
		eval[bool](tb, fmt.Sprintf(`(localStorage.setItem("allfives-lang", %q), true)`, c.lang))
		tb.do("the program's page", chromedp.Navigate(s.url+"/player/"+engine.Player.ID))
		got := poll[[]string](tb, "the page", mark)
		if got[0] != c.mark || got[1] != c.note || got[2] != "Deep Five "+c.mark {
			t.Errorf("in %s the program's page marks it %q, says %q, and is titled %q", c.lang, got[0], got[1], got[2])
		}
		tb.checkAxe("a program's page, " + c.lang)
	}
	tb.do("a person's page", chromedp.Navigate(s.url+"/player/"+person.Player.ID))
	if got := poll[[]string](tb, "the page", mark); got[0] != "" || got[1] != "" || got[2] != "Ada" {
		t.Errorf("a person's page marks %q, says %q, titled %q", got[0], got[1], got[2])
	}
}

// asProgram makes the tab's pages read the player id as the API answers for a program (an
// engine): its profile with "program": true, every other answer as the server sent it. The
// page's rendering of the field is what is under test, not the server's setting of it.
func (tb *tab) asProgram(id string) {
	tb.t.Helper()
	script := fmt.Sprintf(`(() => {
  const real = window.fetch;
  window.fetch = async (input, init) => {
    const res = await real(input, init);
    if (new URL(String(input), location.href).pathname !== "/api/v1/players/" + %s || !res.ok) return res;
    const body = await res.json();
    return new Response(JSON.stringify({ ...body, program: true }), { status: res.status, headers: res.headers });
  };
})()`, jsonString(id))
	if _, err := chromedp.Call(tb.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
		tb.t.Fatal(err)
	}
}
