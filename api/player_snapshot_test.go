package api_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/repository/storetest"
)

// TestPlayerSnapshotTurnsFirst: the player's stream's snapshot follows 1,000 live matches,
// and a match where it is the player's turn is among them however many newer matches of the
// player's are in progress: its oldest match, its turn, is in the snapshot beside 1,000 newer
// ones where another seat is to move.
func TestPlayerSnapshotTurnsFirst(t *testing.T) {
	ls := newHarness(t, apitest.Sync("off"), apitest.WithPlayersClock(&apitest.Clock{}), apitest.ServerConfig(shortHeartbeat), apitest.Live(nil))
	store := ls.store
	ada := ls.newPlayer("Ada")
	at := storetest.Base
	made := func(turn bool) string {
		for i := 0; ; i++ {
			at = at.Add(time.Second)
			f := storetest.NewBoundFixture(t, fmt.Sprintf("m%s-%d", at.Format("150405"), i), at, 0, ada.Player.ID, "")
			if (f.Match.Turn() == 0) != turn {
				continue
			}
			if err := f.Create(context.Background(), store); err != nil {
				t.Fatal(err)
			}
			return f.Record.ID
		}
	}
	mine := made(true)
	for range 1000 {
		made(false)
	}
	ps, snap := openPlayerStream(t, ls.Server.URL, ada.Key, "")
	defer ps.close()
	if len(snap.Turns) != 1 || snap.Turns[0].ID != mine {
		t.Fatalf("the snapshot's turns %v, want only %s", snap.Turns, mine)
	}
}
