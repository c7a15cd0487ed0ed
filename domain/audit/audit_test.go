package audit_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee/refereetest"
	"github.com/allfives/allfives/domain/audit"
	"github.com/allfives/allfives/domain/internal/matchtest"
	"github.com/allfives/allfives/repository/memstore"
)

// auditCount is how many matches per table size the passing audits cover.
func auditCount() int {
	if testing.Short() {
		return 5
	}
	return 25
}

func TestAuditPassesOnBotMatches(t *testing.T) {
	ctx := context.Background()
	for i, shape := range matchtest.Shapes {
		t.Run(shape.Name, func(t *testing.T) {
			// given finished matches of bots at the default target, stored in memstore
			svc := refereetest.Service(memstore.New(), uint64(100+i))
			for range auditCount() {
				c := refereetest.Create(t, svc, shape, 0, 0)
				// when each is audited
				rep, err := svc.Audit(ctx, c.Match.ID, domain.Spectator())
				if err != nil {
					t.Fatal(err)
				}
				// then every check holds, the seed and deals included
				if !rep.OK || rep.FirstBadSeq != nil || checkNames(rep) != "hash_chain rules read_model seed deals seats idempotency stored_seed" {
					t.Fatalf("audit of a clean match failed: %s", reportJSON(rep))
				}
				if rep.Events != c.Match.Version || len(rep.HeadHash) != 64 {
					t.Fatalf("events %d, head %q; want %d events and a hash", rep.Events, rep.HeadHash, c.Match.Version)
				}
			}
		})
	}
}

func TestAuditEventsPassOnRandomMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i, shape := range matchtest.Shapes {
		t.Run(shape.Name, func(t *testing.T) {
			for n := range auditCount() {
				// given a random match, finished or cut off while live
				log := matchtest.PlayOut(t, matchtest.Spec(shape, 150), matchtest.Seed(byte(i*64+n)), matchtest.RandomMove(rng), 0)
				// A live log ends where a move's events end, just before the next move.
				cut := 2 + rng.IntN(len(log)-2)
				for cut < len(log) && !isMove(log[cut].Data) {
					cut++
				}
				for _, part := range [][]domain.Event{log, log[:cut]} {
					// when its events alone are audited
					checks := audit.Events("m", audit.LogRead{Events: part}, domain.Spectator())
					// then every check holds
					for _, c := range checks {
						if !c.OK {
							t.Fatalf("%d of %d events: %s failed: %s", len(part), len(log), c.Name, c.Detail)
						}
					}
				}
			}
		})
	}
}

func TestAuditOfALiveMatchIsPublic(t *testing.T) {
	// given a live match with a human at seat 0
	ctx := context.Background()
	svc := refereetest.Service(memstore.New(), 5)
	live := refereetest.Create(t, svc, matchtest.Shapes[1], 1, 0)
	// when a spectator audits it
	rep, err := svc.Audit(ctx, live.Match.ID, domain.Spectator())
	if err != nil {
		t.Fatal(err)
	}
	// then the public checks hold and no seed or deal check is claimed
	if !rep.OK || checkNames(rep) != "hash_chain rules read_model seats idempotency stored_seed" {
		t.Fatalf("live audit: %s", reportJSON(rep))
	}
	if _, err := svc.Audit(ctx, "nope", domain.Spectator()); err == nil {
		t.Error("auditing an unknown match gave no error")
	}
}

func checkNames(rep audit.Report) string {
	names := make([]string, len(rep.Checks))
	for i, c := range rep.Checks {
		names[i] = c.Name
	}
	return strings.Join(names, " ")
}

func reportJSON(rep audit.Report) string {
	b, _ := json.MarshalIndent(rep, "", "  ")
	return string(b)
}

// failing lists the names of the checks that failed.
func failing(rep audit.Report) []string {
	var names []string
	for _, c := range rep.Checks {
		if !c.OK {
			names = append(names, c.Name)
		}
	}
	return names
}

// decodeRow reads a tampered row's payload.
func decodeRow(t *testing.T, r tamperRow) domain.EventData {
	t.Helper()
	d, err := domain.DecodeEventData(r.typ, r.data)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// rewrite changes a row's payload through f.
func rewrite(t *testing.T, r *tamperRow, f func(domain.EventData) domain.EventData) {
	t.Helper()
	data, err := domain.EncodeData(f(decodeRow(t, *r)))
	if err != nil {
		t.Fatal(err)
	}
	r.data = data
}

// findRow returns the index of the first row from index from that matches, failing the test if
// none does.
func findRow(t *testing.T, rows []tamperRow, from int, match func(domain.EventData) bool) int {
	t.Helper()
	for i := from; i < len(rows); i++ {
		if match(decodeRow(t, rows[i])) {
			return i
		}
	}
	t.Fatal("no row to tamper with")
	return -1
}

func isMove(d domain.EventData) bool {
	switch d.(type) {
	case domain.TilePlayed, domain.TileDrawn, domain.TurnPassed:
		return true
	}
	return false
}

func isPlay(d domain.EventData) bool { _, ok := d.(domain.TilePlayed); return ok }

func slicesHas(names []string, name string) bool { return slices.Contains(names, name) }
