package audit_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/referee/refereetest"
	"github.com/allfives/allfives/domain/internal/matchtest"
	"github.com/allfives/allfives/repository/memstore"
)

// tamperCase changes a stored match and says which event the audit must name (0: none) and
// which checks must fail and hold.
type tamperCase struct {
	name     string
	live     bool
	edit     func(t *testing.T, rows []tamperRow, sum *domain.Summary) ([]tamperRow, int)
	mustFail []string
	mustHold []string
}

var tamperCases = []tamperCase{
	{
		name: "a play's points changed", edit: changePoints(false),
		mustFail: []string{"hash_chain", "rules"}, mustHold: []string{"seed", "deals"},
	},
	{
		name: "a play's points changed and the chain re-hashed", edit: changePoints(true),
		mustFail: []string{"rules"}, mustHold: []string{"hash_chain", "seed", "deals"},
	},
	{
		name: "a drawn tile changed and the chain re-hashed", edit: changeDraw,
		mustFail: []string{"rules"}, mustHold: []string{"hash_chain"},
	},
	{
		name: "a payload that no longer decodes", edit: garble,
		mustFail: []string{"hash_chain", "rules", "read_model"},
	},
	{
		name: "an event deleted", edit: deleteEvent(false),
		mustFail: []string{"hash_chain", "rules"},
	},
	{
		name: "an event deleted, the rest renumbered and re-hashed", edit: deleteEvent(true),
		mustFail: []string{"rules"}, mustHold: []string{"hash_chain"},
	},
	{
		name: "the last event deleted", edit: deleteLast,
		mustFail: []string{"rules", "read_model"}, mustHold: []string{"hash_chain"},
	},
	{
		name: "two plays swapped", edit: swapPlays(false),
		mustFail: []string{"hash_chain", "rules"},
	},
	{
		name: "two plays swapped and the chain re-hashed", edit: swapPlays(true),
		mustFail: []string{"rules"}, mustHold: []string{"hash_chain"},
	},
	{
		name: "the read model's scores changed", edit: changeReadModel,
		mustFail: []string{"read_model"}, mustHold: []string{"hash_chain", "rules", "seed", "deals"},
	},
	{
		name: "the revealed seed altered and the chain re-hashed", edit: alterSeed,
		mustFail: []string{"seed", "deals"}, mustHold: []string{"hash_chain", "rules", "read_model"},
	},
	{
		name: "a later deal's boneyard reordered and the chain re-hashed", edit: reorderBoneyard,
		mustFail: []string{"deals"}, mustHold: []string{"hash_chain", "seed"},
	},
	{
		name: "a live deal with a tile dealt twice", live: true, edit: dealTwice,
		mustFail: []string{"rules"}, mustHold: []string{"hash_chain"},
	},
}

func TestAuditNamesTheTamperedEvent(t *testing.T) {
	ctx := context.Background()
	for i, tc := range tamperCases {
		t.Run(tc.name, func(t *testing.T) {
			// given a stored two-seat match, finished or live, tampered with in the store
			store := newTamperStore(memstore.New())
			svc := refereetest.Service(store, uint64(200+i))
			humans := 0
			if tc.live {
				humans = 1
			}
			c := refereetest.Create(t, svc, matchtest.Shapes[0], humans, 100)
			var want int
			store.tamper(t, c.Match.ID, func(rows []tamperRow, sum *domain.Summary) []tamperRow {
				rows, want = tc.edit(t, rows, sum)
				return rows
			})
			// when a spectator audits it
			rep, err := svc.Audit(ctx, c.Match.ID, domain.Spectator())
			if err != nil {
				t.Fatal(err)
			}
			// then it fails, names the event, and says which checks failed
			got := 0
			if rep.FirstBadSeq != nil {
				got = *rep.FirstBadSeq
			}
			if rep.OK || got != want {
				t.Fatalf("ok %v, first bad seq %d, want %d:\n%s", rep.OK, got, want, reportJSON(rep))
			}
			bad := failing(rep)
			for _, name := range tc.mustFail {
				if !slicesHas(bad, name) {
					t.Errorf("check %s holds, want it to fail:\n%s", name, reportJSON(rep))
				}
			}
			for _, name := range tc.mustHold {
				if slicesHas(bad, name) || !strings.Contains(checkNames(rep), name) {
					t.Errorf("check %s fails or is missing, want it to hold:\n%s", name, reportJSON(rep))
				}
			}
		})
	}
}

func TestAuditNeverPanicsOnGarbledBytes(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(4, 4))
	store := newTamperStore(memstore.New())
	svc := refereetest.Service(store, 4)
	for n := range 60 {
		// given a stored match with one byte of one payload changed, re-hashed or not
		c := refereetest.Create(t, svc, matchtest.Shapes[n%len(matchtest.Shapes)], n%2, 100)
		store.tamper(t, c.Match.ID, func(rows []tamperRow, _ *domain.Summary) []tamperRow {
			r := &rows[rng.IntN(len(rows))]
			const alphabet = " \"{}[],:-0123456789abcdefnulltrue"
			r.data[rng.IntN(len(r.data))] = alphabet[rng.IntN(len(alphabet))]
			if rng.IntN(2) == 0 {
				rehash(rows)
			}
			return rows
		})
		// when it is audited, then the audit answers without panicking, and a failure names a check
		rep, err := svc.Audit(ctx, c.Match.ID, domain.SeatViewer(0))
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK && len(failing(rep)) == 0 {
			t.Fatalf("failed with no failing check: %s", reportJSON(rep))
		}
	}
}

func TestAuditDetailHidesLiveTiles(t *testing.T) {
	// given a live match whose first draw by the bot at seat 1 was changed and re-hashed
	ctx := context.Background()
	store := newTamperStore(memstore.New())
	svc := refereetest.Service(store, 77)
	c := liveWithDrawBy(t, svc, 1)
	var secret string
	store.tamper(t, c.Match.ID, func(rows []tamperRow, _ *domain.Summary) []tamperRow {
		k := findRow(t, rows, 0, func(d domain.EventData) bool { td, ok := d.(domain.TileDrawn); return ok && td.Seat == 1 })
		rewrite(t, &rows[k], func(d domain.EventData) domain.EventData {
			td := d.(domain.TileDrawn)
			secret = td.Tile.String()
			other := otherTile(*td.Tile)
			td.Tile = &other
			return td
		})
		rehash(rows)
		return rows
	})
	// when seat 0 audits it
	rep, err := svc.Audit(ctx, c.Match.ID, domain.SeatViewer(0))
	if err != nil {
		t.Fatal(err)
	}
	// then the rules check fails without naming seat 1's tiles
	if rep.OK {
		t.Fatalf("audit passed: %s", reportJSON(rep))
	}
	for _, ch := range rep.Checks {
		if strings.Contains(ch.Detail, secret) {
			t.Errorf("check %s shows seat 1's drawn tile %s to seat 0: %s", ch.Name, secret, ch.Detail)
		}
	}
}

// liveWithDrawBy creates two-seat matches, a human at seat 0 taking its first legal move each
// turn, until the bot at seat draws while the match is live, and returns that match.
func liveWithDrawBy(t *testing.T, svc *referee.MatchService, seat int) referee.Created {
	t.Helper()
	ctx := context.Background()
	for range 20 {
		c := refereetest.Create(t, svc, matchtest.Shapes[0], 1, 0)
		for range 100 {
			events, _, err := svc.Events(ctx, c.Match.ID, domain.SeatViewer(1), 0, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if hasDrawBy(events, seat) {
				return c
			}
			_, _, legal, err := svc.LegalMoves(ctx, c.Match.ID, domain.SeatViewer(0))
			if err != nil || len(legal) == 0 {
				break // finished, or not seat 0's turn: try another match
			}
			res, err := svc.Act(ctx, c.Match.ID, domain.SeatViewer(0), referee.ActRequest{Move: legal[0].Move()})
			if err != nil {
				t.Fatal(err)
			}
			if res.Match.Status == domain.StatusFinished {
				break
			}
		}
	}
	t.Fatal("no live match had the bot draw")
	return referee.Created{}
}

func hasDrawBy(events []domain.Event, seat int) bool {
	for _, e := range events {
		if d, ok := e.Data.(domain.TileDrawn); ok && d.Seat == seat {
			return true
		}
	}
	return false
}

func otherTile(t domain.Tile) domain.Tile {
	if t == domain.MustTile("0-0") {
		return domain.MustTile("0-1")
	}
	return domain.MustTile("0-0")
}
