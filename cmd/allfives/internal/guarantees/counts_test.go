package guarantees

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// counts are what the suite checked, logged at its end: docs/design.md ("The guarantee
// suite") quotes them.
type counts struct {
	mu            sync.Mutex
	began         time.Time
	requests      int
	cases         map[[3]string]bool // (route, kind, credential role) asked at least once
	routes        map[string]int     // requests per route
	kinds         map[string]bool
	roles         map[string]bool
	hiddenChecked int // answers about a live or sealed match searched for hidden tiles
	sealedAsked   int // outsiders' requests about a sealed match
	exports       int // match exports run through verify's code
	tourneys      int // tournament exports run through the tournament check
	violations    map[finding]*found
}

// finding is one kind of broken guarantee: the invariant, the method and route, the kind
// of match and what was wrong (the message's form, without its values).
type finding struct{ inv, route, kind, what string }

// found is what the suite saw of one finding: how often, with which credentials, and the
// first answer in full.
type found struct {
	n      int
	roles  []string
	sample string
}

func newCounts() *counts {
	return &counts{began: time.Now(), cases: map[[3]string]bool{}, routes: map[string]int{}, kinds: map[string]bool{},
		roles: map[string]bool{}, violations: map[finding]*found{}}
}

// request counts one answer checked.
func (c *counts) request(v seen) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests++
	kind := "-"
	if v.r.kind != nil {
		kind = v.r.kind.name
		c.kinds[kind] = true
	}
	role := v.r.cred.role
	if role == "" {
		role = roleNone
	}
	c.cases[[3]string{v.route, kind, role}] = true
	c.routes[v.route]++
	c.roles[role] = true
}

// add counts one more of n.
func (c *counts) add(n *int) {
	c.mu.Lock()
	*n++
	c.mu.Unlock()
}

// violation counts one finding met with role.
func (c *counts) violation(f finding, role, sample string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	got := c.violations[f]
	if got == nil {
		got = &found{sample: sample}
		c.violations[f] = got
	}
	got.n++
	if !slices.Contains(got.roles, role) {
		got.roles = append(got.roles, role)
	}
}

// findings is how many findings were counted.
func (c *counts) findings() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, f := range c.violations {
		n += f.n
	}
	return n
}

// clear forgets every finding.
func (c *counts) clear() {
	c.mu.Lock()
	c.violations = map[finding]*found{}
	c.mu.Unlock()
}

// report fails t with every finding, one error each, in a stable order.
func (c *counts) report(t *testing.T, engine string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := slices.SortedFunc(maps.Keys(c.violations), func(a, b finding) int {
		return cmp.Or(cmp.Compare(a.inv, b.inv), cmp.Compare(a.route, b.route), cmp.Compare(a.kind, b.kind), cmp.Compare(a.what, b.what))
	})
	for _, f := range keys {
		got := c.violations[f]
		t.Errorf("%s violated on %s | %s | kind %s | credentials %s | %d answers; first: %s",
			f.inv, engine, f.route, f.kind, strings.Join(got.roles, ", "), got.n, got.sample)
	}
}

// size is the suite's size as docs/design.md ("The guarantee suite") quotes it.
func (c *counts) size() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Sprintf("%d routes x %d kinds x %d credentials: %d (route, kind, credential) cases",
		len(c.routes), len(c.kinds), len(c.roles), len(c.cases))
}

// String is the suite's one line of counts.
func (c *counts) String() string {
	size := c.size()
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Sprintf("%s in %d requests; %d answers searched for hidden tiles, %d outsiders' requests about sealed "+
		"matches, %d match exports verified, %d tournament exports checked; %s",
		size, c.requests, c.hiddenChecked, c.sealedAsked, c.exports, c.tourneys, time.Since(c.began).Round(time.Second))
}

// quoted fails t unless docs/design.md quotes the suite's size as it is.
func (c *counts) quoted(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "design.md"))
	if err != nil {
		t.Fatal(err)
	}
	if size := c.size(); !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), size) {
		t.Errorf("docs/design.md (\"The guarantee suite\") does not say the suite's size as it is now: %q", size)
	}
}
