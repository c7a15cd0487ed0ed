package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
)

// seed1 deals seat 0 of a two-player match 2-3 4-4 4-5 2-4 2-5 0-0 5-5 (docs/api-records.md, "Verifying an export").
const seed1 = "1220bce908f962d172dd71edf7f3215397eaadbf54c4d03b1fc8334e91eaf12a"

// screenshotsEnv names the variable that makes the browser tests write the screenshots the
// README shows into docs/screenshots: ALLFIVES_SCREENSHOTS=1 go test ./api/web/.
const screenshotsEnv = "ALLFIVES_SCREENSHOTS"

// site is the whole server, the real router over a real SQLite file, listening on a port.
type site struct {
	t   *testing.T
	url string
	srv *httptest.Server
}

// newSite is the server as `allfives serve` wires it, players and stream tickets included.
func newSite(t *testing.T) *site {
	t.Helper()
	return newPlayersSite(t)
}

// newSiteWithoutPlayers is apitest's server, which has no players and so no stream tickets.
func newSiteWithoutPlayers(t *testing.T) *site {
	t.Helper()
	srv := apitest.Server(t, 7)
	return &site{t: t, url: srv.URL, srv: srv}
}

// call sends a request to the API and decodes a 2xx answer into out.
func (s *site) call(method, path, token string, body, out any) {
	s.t.Helper()
	apitest.CallOK(s.t, method, s.url+path, token, body, out)
}

// create makes a match; a player "bot:expert" is a bot of that strategy, any other a human.
func (s *site) create(target int, seed string, players ...string) api.CreateMatchResponse {
	s.t.Helper()
	req := api.CreateMatchRequest{Seed: seed}
	if target != 0 { // 0: the table's default, left out (an explicit 0 is refused)
		req.Target = new(target)
	}
	for i, p := range players {
		if name, ok := strings.CutPrefix(p, "bot:"); ok {
			req.Players = append(req.Players, api.PlayerRequest{Name: []string{"Ada", "Bo", "Cy", "Di"}[i], Kind: "bot", Bot: name})
		} else {
			req.Players = append(req.Players, api.PlayerRequest{Name: p, Kind: "human"})
		}
	}
	var out api.CreateMatchResponse
	s.call(http.MethodPost, "/api/v1/matches", "", req, &out)
	return out
}

// view is the match as the token's seat (or a spectator) sees it.
func (s *site) view(id, token string) api.MatchView {
	s.t.Helper()
	var v api.MatchView
	s.call(http.MethodGet, "/api/v1/matches/"+id, token, nil, &v)
	return v
}

// browser is what one test sees of the package's Chromium: browser contexts of its own (their
// own storage, cache and connections), so that tests share nothing but the process.
type browser struct {
	t     *testing.T
	root  context.Context // the shared Chromium's first tab
	first context.Context // the test's first tab, in the test's first browser context
}

// chromiumPath finds Debian's Chromium (or another Chrome). Without one the browser tests
// skip, except in CI (CI=true), where they must run.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("Chromium is not installed, and CI=true requires the browser tests: apt-get install -y chromium")
	}
	t.Skip("browser tests need Chromium: apt-get install -y chromium, then go test ./api/web/")
	return ""
}

// chromium is the one Chromium the package's tests share, started by the first test that
// needs it and stopped by TestMain, so that the tests, run in parallel, share one browser
// process rather than each starting its own.
var chromium struct {
	once sync.Once
	root context.Context
	stop func()
	dir  string
	err  error
}

// TestMain stops the shared Chromium and removes its profile once every test has run.
func TestMain(m *testing.M) {
	code := m.Run()
	if chromium.stop != nil {
		chromium.stop()
	}
	if chromium.dir != "" {
		os.RemoveAll(chromium.dir)
	}
	os.Exit(code)
}

// startChromium starts the shared Chromium, once.
func startChromium(path string) {
	chromium.once.Do(func() {
		dir, err := os.MkdirTemp("", "allfives-chromium-")
		if err != nil {
			chromium.err = err
			return
		}
		chromium.dir = dir
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
			chromedp.ExecPath(path),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.Flag("disable-extensions", true),
			chromedp.UserDataDir(dir),
			chromedp.WindowSize(1280, 900),
		)
		root, cancelRoot := chromedp.NewContext(alloc)
		chromium.stop = func() {
			cancelRoot()
			cancelAlloc()
		}
		if err := chromedp.Do(root); err != nil {
			chromium.err = err
			return
		}
		chromium.root = root
	})
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	startChromium(chromiumPath(t))
	if chromium.err != nil {
		t.Fatalf("start Chromium: %v", chromium.err)
	}
	return &browser{t: t, root: chromium.root}
}

// tab is one page of the browser, in its own browser context (its own localStorage) when
// asked, with every console error, uncaught exception and browser-log error it gets.
type tab struct {
	t     *testing.T
	ctx   context.Context
	mu    sync.Mutex
	errs  []string
	allow []string // console errors expected by the test, by a part of their text
}

// expectConsole allows console errors holding text: the browser logs a refused request (a 4xx
// a test asks for on purpose) as an error.
func (tb *tab) expectConsole(text string) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.allow = append(tb.allow, text)
}

// tab opens a page. The test's first tab and each isolated one get a browser context of their
// own, as a second person on another machine would have; the others share the first's.
func (b *browser) tab(isolated bool) *tab {
	b.t.Helper()
	parent, opts := b.root, []chromedp.ContextOption{chromedp.WithNewBrowserContext()}
	if b.first != nil && !isolated {
		parent, opts = b.first, nil
	}
	ctx, cancel := chromedp.NewContext(parent, opts...)
	b.t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		b.t.Fatalf("open a tab: %v", err)
	}
	if b.first == nil {
		b.first = ctx
	}
	ctx, cancelTimeout := context.WithTimeout(ctx, 4*time.Minute)
	b.t.Cleanup(cancelTimeout)
	tb := &tab{t: b.t, ctx: ctx}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				tb.mu.Lock()
				tb.errs = append(tb.errs, m.String()+" at "+m.URL)
				tb.mu.Unlock()
			}
		}
	}()
	b.t.Cleanup(tb.checkConsole)
	return tb
}

// checkConsole fails the test on any console error the page got.
func (tb *tab) checkConsole() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
next:
	for _, e := range tb.errs {
		for _, a := range tb.allow {
			if strings.Contains(e, a) {
				continue next
			}
		}
		tb.t.Errorf("console error: %s", e)
	}
}

// do runs actions in the tab and fails the test on an error.
func (tb *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		tb.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates an expression in the page into out.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		tb.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// poll waits until the expression is truthy and answers its value.
func poll[T any](tb *tab, what, expr string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Poll[T](expr, chromedp.WithPollingTimeout(60*time.Second), chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		tb.t.Fatalf("waiting for %s: %v", what, err)
	}
	return v
}

// screenshot writes the page at a width to docs/screenshots/name.png when screenshotsEnv is
// set, so the README's pictures are made by the tests and stay current.
func (tb *tab) screenshot(name string, width, height int64) {
	tb.t.Helper()
	if os.Getenv(screenshotsEnv) == "" {
		return
	}
	var png []byte
	tb.do("screenshot "+name,
		chromedp.EmulateViewport(width, height),
		chromedp.Sleep(300*time.Millisecond), // let the layout settle at the new width
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			b, err := chromedp.FullScreenshot(100)(ctx, t)
			png = b
			return err
		}),
		chromedp.EmulateViewport(1280, 900),
	)
	dir := filepath.Join("..", "..", "docs", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
}

// jsonString is s as a JavaScript string literal.
func jsonString(s string) string {
	js, _ := json.Marshal(s)
	return string(js)
}

// clickWhen waits until the element the selector names is there, shown and enabled, and clicks
// it in the same step: a list that re-renders between a wait and a click cannot replace the
// node from under it, because finding and clicking happen in one turn of the page's script.
func (tb *tab) clickWhen(what, selector string) {
	tb.t.Helper()
	poll[bool](tb, what, `(() => {
  const e = document.querySelector(`+jsonString(selector)+`);
  if (!e || e.disabled || !(e.offsetParent !== null || e.getClientRects().length > 0)) return false;
  e.click();
  return true;
})()`)
}
