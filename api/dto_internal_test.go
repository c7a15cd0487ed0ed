package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// TestHistoryItemSeeded: a history item says seeded whatever its status, a waiting match's
// too (one created before seeds were refused with open seats), and says it when false.
func TestHistoryItemSeeded(t *testing.T) {
	for _, seeded := range []bool{true, false} {
		item := toHistoryItem(referee.HistoryItem{ID: "m", Summary: domain.Summary{Status: domain.StatusWaiting, Listed: true, OpenSeats: []int{1}, Seeded: seeded}})
		b, err := json.Marshal(item)
		if err != nil {
			t.Fatal(err)
		}
		if want := `"seeded":` + map[bool]string{true: "true", false: "false"}[seeded]; !strings.Contains(string(b), want) {
			t.Errorf("%s has no %s", b, want)
		}
	}
}
