package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
)

// catalogue reads one language's catalogue from the embedded files.
func catalogue(t *testing.T, lang string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("static", "i18n", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]string
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("%s.json: %v", lang, err)
	}
	return c
}

var placeholder = regexp.MustCompile(`\{\w+\}`)

// TestCataloguesKeyForKey: English and Dutch have the same keys, each with the same
// placeholders and none empty; every key the scripts and pages use is in them (a count's key
// as its .one and .other), and every key in them is used.
func TestCataloguesKeyForKey(t *testing.T) {
	en, nl := catalogue(t, "en"), catalogue(t, "nl")
	for k, v := range en {
		w, ok := nl[k]
		if !ok {
			t.Errorf("nl.json lacks %s", k)
			continue
		}
		if strings.TrimSpace(v) == "" || strings.TrimSpace(w) == "" {
			t.Errorf("%s is empty in a catalogue", k)
		}
		a, b := placeholder.FindAllString(v, -1), placeholder.FindAllString(w, -1)
		sort.Strings(a)
		sort.Strings(b)
		if !slices.Equal(slices.Compact(a), slices.Compact(b)) {
			t.Errorf("%s: English has %v, Dutch %v", k, a, b)
		}
	}
	for k := range nl {
		if _, ok := en[k]; !ok {
			t.Errorf("en.json lacks %s", k)
		}
	}
	used := map[string]bool{}
	var sources strings.Builder
	files, _ := filepath.Glob(filepath.Join("static", "*"))
	calls := regexp.MustCompile(`\b(t|tn)\("([a-z0-9_.A-Z]+)"`)
	attrs := regexp.MustCompile(`data-i18n="([^"]+)"|data-i18n-attr="([^"]+)"`)
	dynamic := regexp.MustCompile("t\\(`([a-z_]+)\\.\\$\\{")
	prefixes := []string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || (!strings.HasSuffix(f, ".js") && !strings.HasSuffix(f, ".html")) {
			continue
		}
		src := string(b)
		sources.WriteString(src)
		for _, m := range calls.FindAllStringSubmatch(src, -1) {
			keys := []string{m[2]}
			if m[1] == "tn" {
				keys = []string{m[2] + ".one", m[2] + ".other"}
			}
			for _, k := range keys {
				used[k] = true
				if _, ok := en[k]; !ok {
					t.Errorf("%s uses %s, which the catalogues lack", filepath.Base(f), k)
				}
			}
		}
		for _, m := range attrs.FindAllStringSubmatch(src, -1) {
			keys := []string{m[1]}
			if m[2] != "" {
				keys = nil
				for _, pair := range strings.Split(m[2], ";") {
					if _, k, ok := strings.Cut(pair, ":"); ok {
						keys = append(keys, strings.TrimSpace(k))
					}
				}
			}
			for _, k := range keys {
				used[k] = true
				if _, ok := en[k]; !ok {
					t.Errorf("%s uses %s, which the catalogues lack", filepath.Base(f), k)
				}
			}
		}
		for _, m := range dynamic.FindAllStringSubmatch(src, -1) {
			prefixes = append(prefixes, m[1]+".")
		}
	}
	for k := range en {
		// A key chosen by a condition (t(won ? "me.won" : "me.lost")) is written out whole.
		if used[k] || strings.Contains(sources.String(), `"`+k+`"`) || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(k, p) }) {
			continue
		}
		t.Errorf("the catalogues have %s, which nothing uses", k)
	}
}

// untranslated lists what the page shows (its text, and the names and hints of its elements)
// that holds a piece of English from the catalogue: a page in Dutch must show none. Text the
// page marks as English (lang="en": the API's own words, such as the audit's details) and
// pieces shorter than two words are left out, as are pieces Dutch shares.
const untranslated = `(async () => {
  const [en, nl] = await Promise.all(["en", "nl"].map((l) => fetch("/assets/i18n/" + l + ".json").then((r) => r.json())));
  const dutch = Object.values(nl).join("\n");
  const pieces = new Set();
  for (const [k, v] of Object.entries(en)) {
    if (v === nl[k]) continue;
    for (const p of v.split(/\{\w+\}/)) {
      const s = p.trim();
      if (s.length >= 8 && s.includes(" ") && /[a-z]/.test(s) && !dutch.includes(s)) pieces.add(s);
    }
  }
  const shown = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const e = n.parentElement;
    if (!e || e.closest("[lang=en]:not(html), script, style, [hidden]")) continue;
    shown.push(n.textContent);
  }
  for (const e of document.querySelectorAll("[aria-label], [title], [placeholder], title")) {
    if (e.closest("[lang=en]:not(html), [hidden]")) continue;
    for (const a of ["aria-label", "title", "placeholder"]) if (e.getAttribute(a)) shown.push(e.getAttribute(a));
    if (e.tagName.toLowerCase() === "title") shown.push(e.textContent);
  }
  shown.push(document.title);
  const text = shown.join("\n");
  return [...pieces].filter((p) => text.includes(p));
})()`

// tour opens every page of the client in a state that shows most of it, running check on each:
// home signed in (with a challenge, an offer, turns and finished matches; Play now waiting,
// then cancelled), a table in play,
// a challenge's table, a finished table, a replay with its review, a leaderboard, a player's
// page, the rules, the tournaments, and a tournament upcoming and running.
func tour(t *testing.T, s *site, tb *tab, check func(page string)) {
	t.Helper()
	var ada, bo api.CreatePlayerResponse
	s.call("POST", "/api/v1/players", "", api.CreatePlayerRequest{Name: "Ada"}, &ada)
	s.call("POST", "/api/v1/players", "", api.CreatePlayerRequest{Name: "Bo"}, &bo)
	var live api.CreateMatchResponse
	s.call("POST", "/api/v1/matches", ada.Key, map[string]any{"rated": true, "players": []map[string]any{{"kind": "human", "player": "me"}, {"kind": "bot", "bot": "greedy"}}}, &live)
	var offer, challenge api.CreateMatchResponse
	s.call("POST", "/api/v1/matches", ada.Key, map[string]any{"players": []map[string]any{{"kind": "human", "player": "me"}, {"kind": "human", "player": bo.Player.ID}}}, &offer)
	s.call("POST", "/api/v1/matches", bo.Key, map[string]any{"players": []map[string]any{{"kind": "human", "player": "me"}, {"kind": "human", "player": ada.Player.ID}}}, &challenge)
	done := s.create(60, seed1, "bot:greedy", "bot:random").Match
	for range 16 { // more finished matches than a page holds
		s.create(5, "", "bot:random", "bot:random")
	}

	tb.do("sign in", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("key-input")),
		setInput("key-input", ada.Key), chromedp.Click(chromedp.CSS(`#signin button[type=submit]`)), chromedp.WaitVisible(chromedp.ID("signed-in")))
	poll[bool](tb, "home's lists", `document.getElementById("finished").dataset.loaded === "1" && document.getElementById("my-matches").dataset.loaded === "1" && !!document.querySelector("#my-challenges button.accept") && !!document.querySelector("#my-offers button.withdraw") && !document.getElementById("more-finished").hidden`)
	check("home")
	// Play now's waiting state: this server pairs nothing, so it waits until cancelled.
	tb.clickWhen("Play now", "#play-now-button")
	poll[bool](tb, "the waiting state", `!document.getElementById("seeking").hidden && document.getElementById("seek-elapsed").textContent !== ""`)
	check("home, Play now waiting")
	tb.clickWhen("cancel the seek", "#seek-cancel")
	poll[bool](tb, "the seek cancelled", `!document.getElementById("play-now").hidden && document.getElementById("seek-note").textContent !== ""`)
	check("home, Play now cancelled")
	tb.do("older finished matches", chromedp.Click(chromedp.ID("more-finished")))
	poll[bool](tb, "the next page", `document.querySelectorAll("#finished li").length > 15`)

	tb.do("the table", chromedp.Navigate(s.url+"/play/"+live.Match.ID), chromedp.WaitVisible(chromedp.ID("hand")))
	poll[bool](tb, "the table drawn", `document.getElementById("table").dataset.busy === "0" && document.getElementById("table").dataset.status === "in_progress" && document.querySelectorAll("#hand button").length > 0`)
	check("table")
	tb.do("resign asks", chromedp.Click(chromedp.ID("resign")), chromedp.WaitVisible(chromedp.ID("resign-yes")))
	check("table, resign asked")
	tb.do("keep playing", chromedp.Click(chromedp.ID("resign-no")))

	tb.do("a challenge to Ada", chromedp.Navigate(s.url+"/play/"+challenge.Match.ID), chromedp.WaitVisible(chromedp.ID("decline")))
	check("challenged table")
	tb.do("Ada's offer", chromedp.Navigate(s.url+"/play/"+offer.Match.ID))
	poll[bool](tb, "the offer's table", `document.getElementById("table").dataset.status === "waiting" && !document.getElementById("withdraw").hidden`)
	check("waiting table")

	tb.do("a finished table", chromedp.Navigate(s.url+"/play/"+done.ID), chromedp.WaitVisible(chromedp.ID("result")))
	poll[bool](tb, "the last events", `document.querySelectorAll("#log li").length > 0`)
	check("finished table")

	tb.do("the replay", chromedp.Navigate(s.url+"/replay/"+done.ID), chromedp.WaitVisible(chromedp.ID("review-request")))
	poll[bool](tb, "the replay drawn", `document.getElementById("replay").dataset.step !== "0" && document.getElementById("audit-checks").children.length > 0`)
	check("replay")
	tb.do("review it", chromedp.Click(chromedp.ID("review-request")))
	poll[bool](tb, "the review", `!!document.querySelector("#review-seats") && !!document.querySelector("#review-legend")`)
	check("replay with its review")

	tb.do("the leaderboard", chromedp.Navigate(s.url+"/leaderboard/2p"))
	poll[bool](tb, "the leaderboard", `document.getElementById("leaderboard").dataset.loaded === "1"`)
	check("leaderboard")
	tb.do("a player", chromedp.Navigate(s.url+"/player/bot-greedy"))
	poll[bool](tb, "the player's page", `document.getElementById("profile").dataset.loaded === "1"`)
	check("player")
	tb.do("the rules", chromedp.Navigate(s.url+"/rules"), chromedp.WaitVisible(chromedp.ID("rules")))
	check("rules")

	tid, orgKey := tournamentOf(s, "Club night")
	s.call("POST", "/api/v1/tournaments/"+tid+"/entries", ada.Key, nil, nil)
	tb.do("the tournaments", chromedp.Navigate(s.url+"/tournaments"))
	poll[bool](tb, "the tournaments listed", `document.getElementById("tournaments").dataset.loaded === "1" && !!document.querySelector("#t-upcoming li[data-id]")`)
	check("tournaments")
	tb.do("a tournament", chromedp.Navigate(s.url+"/tournaments/"+tid))
	poll[bool](tb, "the tournament, upcoming", `document.getElementById("tournament").dataset.status === "upcoming" && !document.getElementById("t-withdraw").hidden`)
	check("tournament, upcoming")
	s.call("POST", "/api/v1/tournaments/"+tid+"/start", orgKey, nil, nil)
	poll[bool](tb, "the tournament, running", `document.getElementById("tournament").dataset.status === "running" && !!document.querySelector("#t-rounds a.pairing")`)
	check("tournament, running")
}

// TestEveryPageInBothLanguages tours every page in English and in Dutch, chosen by the
// browser's Accept-Language: each passes axe-core's WCAG 2.1 A/AA and 2.2 AA rules with no
// violation, fits a phone 390 px wide with no sideways scroll, logs no console error (the
// tab fails the test on any), and in Dutch shows no English from the catalogue. The choice
// made on a page is remembered over the browser's.
func TestEveryPageInBothLanguages(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			s := newSite(t)
			b := newBrowser(t)
			tb := b.tab(false)
			tb.do("blank", chromedp.Navigate("about:blank"))
			tb.speak(map[string]string{"en": "en-GB,en", "nl": "nl-NL,nl;q=0.9,en;q=0.5"}[lang])
			tour(t, s, tb, func(page string) {
				// The page's script sets its language once its catalogue is in.
				poll[bool](tb, page+" in its language", fmt.Sprintf(`document.documentElement.lang === %q`, lang))
				tb.checkAxe(page)
				if lang == "nl" {
					left, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]string](untranslated, chromedp.EvalAwaitPromise))
					if err != nil {
						t.Fatalf("%s: %v", page, err)
					}
					if len(left) > 0 {
						t.Errorf("%s in Dutch shows English: %q", page, left)
					}
				}
				tb.fitsWidth(page, 390)
				// The README's Dutch pictures (the English ones come from the other tests).
				if lang == "nl" {
					switch page {
					case "table":
						tb.screenshot("table-nl-phone", 390, 844)
					case "replay with its review":
						tb.screenshot("replay-nl-desktop", 1280, 900)
					case "home":
						tb.screenshot("home-nl-phone", 390, 844)
					}
				}
			})
			// Switch on the page: the other language, remembered over Accept-Language.
			other := map[string]string{"en": "nl", "nl": "en"}[lang]
			tb.do("switch", setSelect("lang", other))
			pollAcross[bool](tb, "the page in the other language", fmt.Sprintf(`document.documentElement.lang === %q && document.readyState === "complete"`, other))
			tb.do("another page", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("create")))
			if got := eval[string](tb, `document.documentElement.lang`); got != other {
				t.Errorf("the choice of %s is not remembered: the next page is in %q", other, got)
			}
		})
	}
}
