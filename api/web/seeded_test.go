package web_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/repository/memstore"
)

// seededBadgeText is what the client says of a match whose creator chose the seed.
const seededBadgeText = "seeded: the creator chose the deal"

// newMemSite is the whole server over memstore, which keeps a match's whole summary, seeded
// included, for the lists of the home page; with players, and so stream tickets, as serve has.
func newMemSite(t *testing.T) *site {
	t.Helper()
	store := memstore.New()
	people := players.NewService(players.Config{Store: store})
	svc := referee.NewMatchService(referee.ServiceConfig{Store: store, Bots: bot.Strategies(7), Players: people})
	srv := httptest.NewServer(api.New(api.Config{Service: svc, Players: people}))
	t.Cleanup(srv.Close)
	return &site{t: t, url: srv.URL, srv: srv}
}

// TestSeededBadge: a match whose creator chose the seed says so where anyone may watch it,
// in the home page's list of live matches and in the table's header, to a spectator and to a
// seat; a match dealt from the server's seed shows no badge.
func TestSeededBadge(t *testing.T) {
	t.Parallel()
	s := newMemSite(t)
	seeded := s.create(0, seed1, "Ann", "bot:expert")
	drawn := s.create(0, "", "Cy", "bot:expert")
	b := newBrowser(t)
	tb := b.tab(false)
	badge := func(id string) string {
		return fmt.Sprintf(`(document.querySelector('#live-matches li[data-id=%q] .seeded') || {}).textContent || ""`, id)
	}
	tb.do("open home", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("create")))
	poll[bool](tb, "the live matches", fmt.Sprintf(`!!document.querySelector('#live-matches li[data-id=%q]') && !!document.querySelector('#live-matches li[data-id=%q]')`, seeded.Match.ID, drawn.Match.ID))
	if got := eval[string](tb, badge(seeded.Match.ID)); got != seededBadgeText {
		t.Errorf("the seeded live match's badge reads %q", got)
	}
	if got := eval[string](tb, badge(drawn.Match.ID)); got != "" {
		t.Errorf("a match of the server's seed has the badge %q", got)
	}
	tb.checkAccessible("home with a seeded match")

	header := `(() => { const b = document.getElementById("seeded"); return b.hidden ? "" : b.textContent; })()`
	tb.do("watch the seeded table", chromedp.Navigate(s.url+"/play/"+seeded.Match.ID), chromedp.WaitVisible(chromedp.ID("line")))
	if got := poll[string](tb, "the header badge", header); got != seededBadgeText {
		t.Errorf("the seeded table's header reads %q", got)
	}
	tb.checkAccessible("a seeded table")
	tb.fitsWidth("a seeded table", 360)
	tb.do("sit at the seeded table", chromedp.SendKeys(chromedp.ID("token-input"), seeded.Tokens[0].Token),
		chromedp.Click(chromedp.CSS(`#seat-form button[type=submit]`)), chromedp.WaitVisible(chromedp.ID("hand")))
	if got := eval[string](tb, header); got != seededBadgeText {
		t.Errorf("seated, the header reads %q", got)
	}
	tb.do("watch the other table", chromedp.Navigate(s.url+"/play/"+drawn.Match.ID), chromedp.WaitVisible(chromedp.ID("line")))
	poll[bool](tb, "the table drawn", `document.getElementById("table").dataset.status === "in_progress"`)
	if got := eval[string](tb, header); got != "" {
		t.Errorf("a table of the server's seed has the badge %q", got)
	}
}
