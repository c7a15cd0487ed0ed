package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
)

// The rough edges a newcomer found at the table (docs/api-web.md, "The web client"), one test each.

// missingPage is the table's page as it stands when it has no match to show: whether it says
// so, and whether anything of a table (a form, the loading line, the hand) is still shown.
type missingPage struct {
	Shown  bool   `json:"shown"`
	Text   string `json:"text"`
	Status int    `json:"status"`
	Table  string `json:"table"` // the first thing of a table still visible, or ""
}

const readMissing = `(() => {
  const m = document.getElementById("missing");
  if (m.hidden || document.getElementById("table").dataset.busy !== "0") return null;
  const visible = (e) => e && (e.offsetParent !== null || e.getClientRects().length > 0);
  const left = ["seat-form", "token-input", "join-form", "turn", "line", "hand", "scores", "log"].find((id) => visible(document.getElementById(id))) || "";
  return { shown: true, text: document.getElementById("missing-text").textContent, table: left };
})()`

// TestTableWithoutAMatch: /play/ with no id and /play/ with an id no match has show a page
// that says so, in English and Dutch, with nothing of a table under it: no form, no
// "Loading…"; the page passes axe-core.
func TestTableWithoutAMatch(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	tb := b.tab(false)
	tb.expectConsole("status of 404") // the read of the unknown match, answered 404
	for _, c := range []struct{ path, lang, want string }{
		{"/play/", "en", "This address names no match."},
		{"/play", "en", "This address names no match."},
		{"/play/doesnotexist", "en", "There is no match with the id “doesnotexist”."},
		{"/play/doesnotexist", "nl", "Er is geen partij met het id “doesnotexist”."},
		{"/play/", "nl", "Dit adres noemt geen partij."},
	} {
		tb.do("open the home page", chromedp.Navigate(s.url+"/"))
		eval[bool](tb, fmt.Sprintf(`(localStorage.setItem("allfives-lang", %q), true)`, c.lang))
		tb.do("open "+c.path, chromedp.Navigate(s.url+c.path))
		got := poll[missingPage](tb, "the page without a match", readMissing)
		if !strings.HasPrefix(got.Text, c.want) || got.Table != "" {
			t.Errorf("%s in %s says %q (want %q), and shows %q of a table", c.path, c.lang, got.Text, c.want, got.Table)
		}
		if c.lang == "en" && c.path == "/play/doesnotexist" {
			tb.checkAxe("a table without a match")
			tb.fitsWidth("a table without a match", 390)
		}
	}
}

// TestSpectatorSeesLastEvents: a spectator who opens a match being played sees its last
// events at once, said in words, and the next move arrives live; the scores mark the leader
// while the match goes on, and no one once it ended.
func TestSpectatorSeesLastEvents(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	b := newBrowser(t)
	created := s.create(0, seed1, "Ann", "bot:greedy")
	id, token := created.Match.ID, created.Tokens[0].Token
	play := func() api.MatchView {
		v := s.view(id, token)
		for _, m := range v.LegalMoves {
			if m.Action == "play" || len(v.LegalMoves) == 1 {
				s.move(id, token, m)
				break
			}
		}
		return s.view(id, "")
	}
	v := play()
	tb := b.tab(false)
	tb.do("watch", chromedp.Navigate(s.url+"/play/"+id))
	logged := func(after int) string {
		return fmt.Sprintf(`(() => { const li = [...document.querySelectorAll("#log li")]; return li.length > 0 && li.every((x) => x.textContent.trim()) && Number(li[0].value) >= %d && li.length; })()`, after)
	}
	n := poll[int](tb, "the last events", logged(v.Version))
	if want := min(12, v.Version); n != want {
		t.Errorf("the spectator's log lists %d events, want the last %d", n, want)
	}
	v = play()
	poll[int](tb, "the next move, live", logged(v.Version))

	finished := s.create(15, seed1, "bot:greedy", "bot:greedy").Match.ID
	tb.do("a finished match", chromedp.Navigate(s.url+"/play/"+finished))
	poll[bool](tb, "the end", `document.getElementById("table").dataset.status === "finished" && document.querySelectorAll("#scores li").length === 2 && document.querySelectorAll("#log li").length > 0`)
	if got := eval[string](tb, `document.getElementById("scores").textContent`); strings.Contains(got, "(leading)") || eval[bool](tb, `!!document.querySelector("#scores li.leading")`) {
		t.Errorf("the ended match's scores still mark a leader: %q", got)
	}
}

// TestTournamentDealBadge: Ada plays in a duplicate round robin. Her table's badge says the
// server drew the deal for the round, in English and Dutch, opened from the tournament's page
// or straight from its address, and never that a creator chose it; once the round ended, every
// table of it links to its replay.
func TestTournamentDealBadge(t *testing.T) {
	t.Parallel()
	s := newMatcherSite(t)
	b := newBrowser(t)
	var org api.CreatePlayerResponse
	s.call("POST", "/api/v1/players", "", api.CreatePlayerRequest{Name: "Olga"}, &org)
	var tv api.TournamentView
	s.call("POST", "/api/v1/tournaments", org.Key, api.CreateTournamentRequest{Name: "Same cards", Format: "2p", System: "round_robin", Duplicate: true, Target: 15, MinEntries: 4, MaxEntries: 4}, &tv)
	for _, bot := range []string{"greedy", "random", "expert"} {
		s.call("POST", "/api/v1/tournaments/"+tv.ID+"/entries", org.Key, api.EnterTournamentRequest{Bot: bot}, nil)
	}
	ada := b.tab(false)
	ada.signUp(s.url, "Ada")
	key := eval[string](ada, `JSON.parse(localStorage.getItem("allfives:player")).key`)
	s.call("POST", "/api/v1/tournaments/"+tv.ID+"/entries", key, api.EnterTournamentRequest{}, nil)
	s.call("POST", "/api/v1/tournaments/"+tv.ID+"/start", org.Key, nil, nil)

	ada.do("the tournament", chromedp.Navigate(s.url+"/tournaments/"+tv.ID))
	ada.clickWhen("Ada's pairing", `#t-rounds li.you a.pairing`)
	badge := `(() => { const a = document.getElementById("tour-deal"); return !a.hidden && document.getElementById("seeded").hidden && a.textContent; })()`
	if got := pollAcross[string](ada, "the badge", badge); got != "tournament deal: drawn by the server for round 1" {
		t.Errorf("the table of a duplicate round says %q", got)
	}
	if href := eval[string](ada, `document.getElementById("tour-deal").getAttribute("href")`); href != "/tournaments/"+tv.ID {
		t.Errorf("the badge links to %q", href)
	}
	ada.checkAxe("a table of a duplicate round")
	mine := eval[string](ada, `location.pathname.split("/")[2]`)
	eval[bool](ada, `(localStorage.setItem("allfives-lang", "nl"), true)`)
	ada.do("the table from its address", chromedp.Navigate(s.url+"/play/"+mine))
	if got := poll[string](ada, "the badge in Dutch", badge); got != "toernooi: de server deelde voor ronde 1" {
		t.Errorf("in Dutch, the table of a duplicate round says %q", got)
	}
	eval[bool](ada, `(localStorage.setItem("allfives-lang", "en"), true)`)

	s.call("POST", "/api/v1/matches/"+mine+"/resign", key, nil, nil)
	ada.do("the tournament again", chromedp.Navigate(s.url+"/tournaments/"+tv.ID))
	links := poll[[]string](ada, "round 1 ended", `(() => {
  const r = document.querySelector('#t-rounds section[data-round="1"]');
  const a = r ? [...r.querySelectorAll("a.pairing")] : [];
  return a.length === 2 && a.every((x) => x.getAttribute("href").startsWith("/replay/")) && a.map((x) => x.getAttribute("href"));
})()`)
	ada.clickWhen("a replay", fmt.Sprintf(`#t-rounds a.pairing[href=%q]`, links[0]))
	pollAcross[bool](ada, "the replay", fmt.Sprintf(`location.pathname === %q && document.getElementById("replay").dataset.step !== "0"`, links[0]))

	// The home page's list of finished matches says the same of the round's matches.
	ada.do("home", chromedp.Navigate(s.url+"/"))
	home := fmt.Sprintf(`(() => { const b = document.querySelector('#finished li[data-id=%q] .seeded'); return b && !b.hidden && b.textContent; })()`, mine)
	if got := poll[string](ada, "Ada's match in the finished list", home); got != "tournament deal: drawn by the server" {
		t.Errorf("the home page's list says of a duplicate round's match %q", got)
	}
}
