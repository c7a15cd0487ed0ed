package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeVersion is the axe-core release the accessibility checks run (npm's axe-core); it is used
// by the tests only, never by the product, which needs no Node.
const axeVersion = "4.14"

// axeEnv names a variable that may point at an axe.min.js already on the machine.
const axeEnv = "ALLFIVES_AXE"

// axeRules are the rule sets every page must pass with no violation: WCAG 2.1 A and AA, and
// WCAG 2.2 AA (axe's tags; wcag2a and wcag2aa are the 2.0 rules 2.1 keeps).
var axeRules = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"}

var (
	axeOnce   sync.Once
	axeSource string
	axeErr    error
)

// axeScript answers axe-core's script: from ALLFIVES_AXE, else from npm into the user's cache
// (installed once, by npm's own client). Without npm the test skips, except with CI=true.
func axeScript(t *testing.T) string {
	t.Helper()
	axeOnce.Do(func() {
		if p := os.Getenv(axeEnv); p != "" {
			b, err := os.ReadFile(p)
			axeSource, axeErr = string(b), err
			return
		}
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		dir := filepath.Join(cache, "allfives-axe-"+axeVersion)
		file := filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
		if _, err := os.Stat(file); err != nil {
			npm, err := exec.LookPath("npm")
			if err != nil {
				axeErr = fmt.Errorf("npm is not installed: %w", err)
				return
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				axeErr = err
				return
			}
			out, err := exec.Command(npm, "install", "--prefix", dir, "--no-save", "--no-audit", "--no-fund", "axe-core@"+axeVersion).CombinedOutput()
			if err != nil {
				axeErr = fmt.Errorf("npm install axe-core@%s: %v: %s", axeVersion, err, out)
				return
			}
		}
		b, err := os.ReadFile(file)
		axeSource, axeErr = string(b), err
	})
	if axeErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("axe-core is needed for the accessibility checks: %v", axeErr)
		}
		t.Skipf("the accessibility checks need axe-core (npm install axe-core@%s, or %s=path/to/axe.min.js): %v", axeVersion, axeEnv, axeErr)
	}
	return axeSource
}

// axeViolation is one rule axe-core found broken, with the nodes that break it.
type axeViolation struct {
	ID    string `json:"id"`
	Help  string `json:"help"`
	Nodes []struct {
		Target  []any  `json:"target"`
		HTML    string `json:"html"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// checkAxe runs axe-core's WCAG 2.1 A/AA and 2.2 AA rules on the page as it stands and fails
// the test on any violation.
func (tb *tab) checkAxe(page string) {
	tb.t.Helper()
	src := axeScript(tb.t)
	if !eval[bool](tb, `typeof window.axe === "object"`) {
		tb.do("inject axe-core", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](src+";true")(ctx, t)
			return err
		}))
	}
	rules, _ := json.Marshal(axeRules)
	out, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`axe.run(document, {runOnly: {type: "tag", values: `+string(rules)+`}, resultTypes: ["violations"]}).then((r) => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("%s: axe-core: %v", page, err)
	}
	var vs []axeViolation
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		tb.t.Fatalf("%s: axe-core's answer: %v", page, err)
	}
	for _, v := range vs {
		var where []string
		for _, n := range v.Nodes {
			where = append(where, fmt.Sprint(n.Target)+" "+n.HTML+": "+strings.ReplaceAll(n.Summary, "\n", " "))
		}
		tb.t.Errorf("%s: axe-core %s (%s): %s", page, v.ID, v.Help, strings.Join(where, "; "))
	}
}

// speak makes the tab's browser ask for a language first (Accept-Language, and so
// navigator.languages), as a browser set up in that language does.
func (tb *tab) speak(lang string) {
	tb.t.Helper()
	ua := eval[string](tb, `navigator.userAgent`)
	tb.do("speak "+lang, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: lang})
		return err
	}))
}
