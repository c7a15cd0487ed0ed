package openapi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain/bot"
)

// TestNoEnumCopiedCatches: the rule finds each kind of copy it forbids, and passes a list
// written whole outside package api, a reference and a tag go generate writes.
func TestNoEnumCopiedCatches(t *testing.T) {
	last := bot.LevelName(bot.Levels)
	all := strings.Join(bot.WeakestFirst(), ",")
	systems := Lists["systems"]()
	for _, c := range []struct {
		path, text string
		copies     bool
	}{
		{"api/x_wire.go", "\tBot string `json:\"bot\" enums:\"" + all + "\"`\n", true},
		{"api/x_wire.go", "\tBot string `json:\"bot\" enums:\"" + all + "\" enumsfrom:\"bots\"`\n", false},
		{"api/x_wire.go", "\tSystem string `enums:\"" + strings.Join(systems, ",") + "\" enumsfrom:\"bots\"`\n", true},
		{"api/x.go", "//\t@Param\tbot\tquery\tstring\tfalse\t\"bot\"\tEnums(random, greedy)\n", true},
		{"api/x.go", "// The bots are random, greedy, pimc and expert.\n", true},
		{"api/x.go", "// Each bot of strategy X is the player bot-X (bot-greedy).\n", false},
		{"api/x.go", "// system: " + strings.Join(systems, " or ") + "\n", len(systems) > 1},
		{"docs/x.md", "The bots: random, greedy, pimc and expert.\n", false},
		{"docs/x.md", "The bots: `bot-level-1` … `bot-" + last + "`.\n", false},
		{"docs/x.md", "From level-1 to " + last + ".\n", false},
		{"docs/x.md", "The bots: greedy, pimc and expert.\n", true},
		{"docs/x.md", "The bots: `level-1` … `level-" + fmt.Sprint(bot.Levels-1) + "`.\n", true},
		{"docs/x.md", "The bots: random, greedy, pimc, expert and level-99.\n", true},
		{"docs/x.md", "Here level-5 to " + last + " differ.\n", false},
		{"docs/x.md", "    simulate --bots expert,pimc,greedy\n", false},
		{"api/web/static/x.js", `const BOTS = ["random", "greedy", "pimc"];` + "\n", true},
	} {
		if got := copies(c.path, c.text); (len(got) > 0) != c.copies {
			t.Errorf("%s %q: found %q, want a copy: %v", c.path, c.text, got, c.copies)
		}
	}
}
