package api_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/api/apitest"
	"github.com/allfives/allfives/domain"
)

func (tb *table) audit(seat int) api.AuditReport {
	tb.h.t.Helper()
	var rep api.AuditReport
	tb.fetch("/audit", seat, &rep)
	return rep
}

func checkNames(rep api.AuditReport) []string {
	var names []string
	for _, c := range rep.Checks {
		names = append(names, c.Name)
	}
	return names
}

// TestAuditPassesOnBotMatches: every check holds on bot matches of every table size, and on
// a live match as far as it is public, with no head hash (it would give drawn tiles away).
func TestAuditPassesOnBotMatches(t *testing.T) {
	h := newHarness(t)
	per := 4
	if testing.Short() {
		per = 1
	}
	for _, size := range tableSizes {
		for i := range per {
			tb := h.botMatch(size.players, size.partnerships, i)
			rep := tb.audit(-1)
			version := tb.view(-1).Version
			want := []string{"hash_chain", "rules", "read_model", "seed", "deals", "seats", "idempotency", "stored_seed"}
			if !rep.OK || rep.FirstBadSeq != nil || rep.Events != version || rep.HeadHash == nil || len(*rep.HeadHash) != 64 || !slices.Equal(checkNames(rep), want) {
				t.Fatalf("%d players (partnerships %v), match %d: %s", size.players, size.partnerships, i, jsonOf(t, rep))
			}
			for _, c := range rep.Checks {
				if !c.OK || c.FirstBadSeq != nil || c.Detail == "" {
					t.Fatalf("check %+v", c)
				}
			}
		}
	}
	live := h.create("", true, "human", "greedy", "human", "random")
	live.mustMove(live.view(-1).Hand.Turn, asMove(live.legal(live.view(-1).Hand.Turn).LegalMoves[0]))
	for _, seat := range []int{-1, 0, 2} {
		rep := live.audit(seat)
		if !rep.OK || !slices.Equal(checkNames(rep), []string{"hash_chain", "rules", "read_model", "seats", "idempotency", "stored_seed"}) || rep.HeadHash != nil {
			t.Fatalf("live match as seat %d: %s", seat, jsonOf(t, rep))
		}
	}
	h.do(http.MethodGet, "/api/v1/matches/nope/audit", nil).problem(t, http.StatusNotFound, "MATCH_NOT_FOUND")
	live.h.do(http.MethodGet, live.path("/audit?deep=1"), nil).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
}

// TestAuditNamesTheTamperedEvent: each change made to the file behind the store's back fails
// the audit, naming the first event at fault and the check that caught it; a changed read
// model fails its own check without blaming an event.
func TestAuditNamesTheTamperedEvent(t *testing.T) {
	h := newHarness(t, apitest.WithoutPlayers())
	path := h.Path
	tp := newTamperer(t, path)
	for i, tc := range tamperCases(t, tp) {
		t.Run(tc.name, func(t *testing.T) {
			tb := h.botMatch(2, false, i)
			if rep := tb.audit(-1); !rep.OK {
				t.Fatalf("before the change: %s", jsonOf(t, rep))
			}
			bad := tc.tamper(tb.id, tb.fullLogRaw(t))
			checkBlame(t, tb.audit(-1), bad, tc.check)
		})
	}
}

// tamperCase is one change made to a finished match's file: tamper makes it and returns the
// seq of the first event at fault (0: none), and check is the check that must fail.
type tamperCase struct {
	name   string
	tamper func(id string, log []domain.Event) (bad int)
	check  string
}

// tamperCases reach each check in turn, every change made as anyone with write access to the
// file could, some re-hashing the chain so that only the later checks can tell.
func tamperCases(t *testing.T, tp *tamperer) []tamperCase {
	return []tamperCase{
		{"data edited", func(id string, log []domain.Event) int {
			k := firstPlays(t, log)
			typ, data := tp.row(id, k)
			tp.setRow(id, k, typ, editJSON(t, data, "points", log[k-1].Data.(domain.TilePlayed).Points+5))
			return k
		}, "hash_chain"},
		{"data edited, chain rehashed", func(id string, log []domain.Event) int {
			k := firstPlays(t, log)
			typ, data := tp.row(id, k)
			tp.setRow(id, k, typ, editJSON(t, data, "points", log[k-1].Data.(domain.TilePlayed).Points+5))
			tp.rehash(id, k)
			return k
		}, "rules"},
		{"event deleted", func(id string, log []domain.Event) int {
			k := len(log) / 2
			tp.exec("DELETE FROM events WHERE match_id = ? AND seq = ?", id, k)
			return k
		}, "hash_chain"},
		{"two events swapped, chain rehashed", func(id string, log []domain.Event) int {
			k := firstPlays(t, log)
			typA, dataA := tp.row(id, k)
			typB, dataB := tp.row(id, k+1)
			tp.setRow(id, k, typB, dataB)
			tp.setRow(id, k+1, typA, dataA)
			tp.rehash(id, k)
			return k
		}, "rules"},
		{"revealed seed altered, chain rehashed", func(id string, log []domain.Event) int {
			k := len(log)
			typ, data := tp.row(id, k)
			seed := log[k-1].Data.(domain.MatchEnded).Seed
			other := strings.Map(func(r rune) rune {
				if r == '0' {
					return '1'
				}
				return '0'
			}, seed[:1]) + seed[1:]
			tp.setRow(id, k, typ, editJSON(t, data, "seed", other))
			tp.rehash(id, k)
			return k
		}, "seed"},
		{"read model changed", func(id string, log []domain.Event) int {
			tp.exec("UPDATE matches SET scores = '[0,5]' WHERE id = ?", id)
			return 0
		}, "read_model"},
	}
}

// checkBlame checks that the audit rep fails, blaming event bad (0: none) in its verdict and in
// the check named check.
func checkBlame(t *testing.T, rep api.AuditReport, bad int, check string) {
	t.Helper()
	if rep.OK {
		t.Fatalf("the audit passes a tampered record: %s", jsonOf(t, rep))
	}
	if bad == 0 {
		if rep.FirstBadSeq != nil {
			t.Fatalf("first_bad_seq %d, want null: %s", *rep.FirstBadSeq, jsonOf(t, rep))
		}
	} else if rep.FirstBadSeq == nil || *rep.FirstBadSeq != bad {
		t.Fatalf("first_bad_seq %v, want %d: %s", rep.FirstBadSeq, bad, jsonOf(t, rep))
	}
	for _, c := range rep.Checks {
		if c.Name != check {
			continue
		}
		if c.OK || (bad != 0 && (c.FirstBadSeq == nil || *c.FirstBadSeq != bad)) || c.Detail == "" {
			t.Fatalf("check %s: %s", c.Name, jsonOf(t, c))
		}
		return
	}
	t.Fatalf("no %s check: %s", check, jsonOf(t, rep))
}

// fullLogRaw is the stored log, read before any tampering.
func (tb *table) fullLogRaw(t *testing.T) []domain.Event {
	t.Helper()
	events, err := tb.h.store.Events(context.Background(), tb.id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return events
}
