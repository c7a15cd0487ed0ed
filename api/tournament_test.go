package api_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/tournament"
)

// TestTournamentSwissOfNine: nine bots over four Swiss rounds, one bye a round to a different
// entrant each time, no pairing repeated, every table's match bound to its entrants, the
// audit holding, and the standings equal to the offline recomputation from the exports.
func TestTournamentSwissOfNine(t *testing.T) {
	c := newCup(t)
	_, key := c.player("Organiser")
	id := c.createTournament(key, api.CreateTournamentRequest{Name: "Nine", Format: "2p", System: "swiss", Rounds: 4, Target: 50},
		repeatBots(9, "random", "greedy")...)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/start", key, nil, nil)
	v := c.waitFor(id, "finished", func(v api.TournamentView) bool { return v.Status == "finished" })
	if len(v.Rounds) != 4 || len(v.Standings) != 9 {
		t.Fatalf("%d rounds, %d standings", len(v.Rounds), len(v.Standings))
	}
	met, byes := map[string]bool{}, map[string]bool{}
	for _, r := range v.Rounds {
		if len(r.Tables) != 4 || len(r.Byes) != 1 || byes[r.Byes[0]] {
			t.Fatalf("round %d: %d tables, byes %v (before: %v)", r.Round, len(r.Tables), r.Byes, byes)
		}
		byes[r.Byes[0]] = true
		for _, tb := range r.Tables {
			k := pairKey(tb.Seats[0].Player, tb.Seats[1].Player)
			if met[k] {
				t.Fatalf("round %d repeats %s", r.Round, k)
			}
			met[k] = true
			x := c.export(tb.Match, "")
			if x.Match.Status != "finished" || x.Match.Seats[0].Name != tb.Seats[0].Name || x.Match.Seats[1].Name != tb.Seats[1].Name {
				t.Fatalf("round %d table %d: match %s seats %+v, want %+v", r.Round, tb.Table, tb.Match, x.Match.Seats, tb.Seats)
			}
		}
	}
	var audit api.TournamentAudit
	c.must(http.StatusOK, "GET", "/api/v1/tournaments/"+id+"/audit", "", nil, &audit)
	if !audit.OK {
		t.Fatalf("audit %+v", audit)
	}
	off := c.offline(id)
	if !off.OK {
		t.Fatalf("offline audit %+v", off)
	}
	checkStandings(t, v.Standings, off.Standings)
}

// checkStandings compares the API's standings with a recomputation, line by line.
func checkStandings(t *testing.T, got []api.TournamentStanding, want []tournament.Standing) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d standings, recomputed %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Rank != w.Rank || g.Player != w.Entrant || g.Points != w.Points || g.Buchholz != w.Buchholz ||
			g.SonnebornBerger != w.SonnebornBerger || g.Wins != w.Wins || g.Byes != w.Byes || g.MatchPoints != w.MatchPoints {
			t.Fatalf("standing %d: %+v, recomputed %+v", i+1, g, w)
		}
	}
}

// TestTournamentRoundRobinOfFour: two players and two bots; every human match is resigned by a
// human; three rounds, every pair once, each round started by the server once the last
// match of the one before ended, and each player told its table on its stream's notices.
func TestTournamentRoundRobinOfFour(t *testing.T) {
	c := newCup(t)
	ada, adaKey := c.player("Ada")
	bob, bobKey := c.player("Bob")
	keys := map[string]string{ada: adaKey, bob: bobKey}
	id := c.createTournament(adaKey, api.CreateTournamentRequest{Name: "Four", Format: "2p", System: "round_robin", TurnSeconds: 600}, "greedy", "random")
	c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+id+"/entries", adaKey, nil, nil)
	c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+id+"/entries", bobKey, nil, nil)
	c.must(http.StatusConflict, "POST", "/api/v1/tournaments/"+id+"/entries", bobKey, nil, nil)
	c.must(http.StatusForbidden, "POST", "/api/v1/tournaments/"+id+"/start", bobKey, nil, nil)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/start", adaKey, nil, nil)
	c.must(http.StatusConflict, "POST", "/api/v1/tournaments/"+id+"/entries", bobKey, nil, nil)
	met := map[string]bool{}
	for round := 1; round <= 3; round++ {
		v := c.waitFor(id, "in its round", func(v api.TournamentView) bool {
			if len(v.Rounds) < round {
				return false
			}
			for _, tb := range v.Rounds[round-1].Tables {
				if tb.Match == "" {
					return false
				}
			}
			return true
		})
		for _, tb := range v.Rounds[round-1].Tables {
			met[pairKey(tb.Seats[0].Player, tb.Seats[1].Player)] = true
			for _, s := range tb.Seats {
				if k := keys[s.Player]; k != "" {
					// The seat is bound to the player: its key acts there.
					code, _ := c.call("POST", "/api/v1/matches/"+tb.Match+"/resign", k, nil)
					if code != http.StatusOK && code != http.StatusConflict {
						t.Fatalf("resign %s: %d", tb.Match, code)
					}
				}
			}
		}
	}
	v := c.waitFor(id, "finished", func(v api.TournamentView) bool { return v.Status == "finished" })
	if len(v.Rounds) != 3 || len(met) != 6 {
		t.Fatalf("%d rounds, %d pairings met", len(v.Rounds), len(met))
	}
	off := c.offline(id)
	if !off.OK {
		t.Fatalf("offline audit %+v", off)
	}
	checkStandings(t, v.Standings, off.Standings)
}

// handsOf is every hand.started's hands of an export, in order.
func handsOf(t *testing.T, x matchExport) [][][]string {
	var out [][][]string
	for _, e := range x.Events {
		if e.Type != "hand.started" {
			continue
		}
		var d struct {
			Hands [][]string `json:"hands"`
		}
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d.Hands)
	}
	return out
}

// TestDuplicateRoundDealsTheSameHands: in a duplicate round every table is dealt the same hands
// (hand by hand, as far as both tables played), from the seed the round committed to.
func TestDuplicateRoundDealsTheSameHands(t *testing.T) {
	c := newCup(t)
	_, key := c.player("Organiser")
	id := c.createTournament(key, api.CreateTournamentRequest{Name: "Dup", Format: "2p", System: "swiss", Rounds: 2, Duplicate: true, Target: 100},
		repeatBots(6, "random", "greedy", "random")...)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/start", key, nil, nil)
	v := c.waitFor(id, "finished", func(v api.TournamentView) bool { return v.Status == "finished" })
	for _, r := range v.Rounds {
		if r.Commitment == "" || r.Seed == "" || len(r.Tables) != 3 {
			t.Fatalf("round %d: commitment %q seed %q, %d tables", r.Round, r.Commitment, r.Seed, len(r.Tables))
		}
		first := handsOf(t, c.export(r.Tables[0].Match, ""))
		for _, tb := range r.Tables {
			x := c.export(tb.Match, "")
			if x.Match.Commitment != r.Commitment {
				t.Fatalf("round %d table %d: commitment %s, round's %s", r.Round, tb.Table, x.Match.Commitment, r.Commitment)
			}
			hands := handsOf(t, x)
			for h := range min(len(hands), len(first)) {
				if !reflect.DeepEqual(hands[h], first[h]) {
					t.Fatalf("round %d table %d hand %d: %v, table 1's %v", r.Round, tb.Table, h+1, hands[h], first[h])
				}
			}
		}
	}
	if off := c.offline(id); !off.OK {
		t.Fatalf("offline audit %+v", off)
	}
}

// TestTournamentSurvivesRestart: a round robin of two players and two bots is stopped mid-round
// (its human match waiting for a move), the server restarts on the same database, and the
// tournament goes on from its log to its end.
func TestTournamentSurvivesRestart(t *testing.T) {
	c := newCup(t)
	ada, adaKey := c.player("Ada")
	bob, bobKey := c.player("Bob")
	keys := map[string]string{ada: adaKey, bob: bobKey}
	id := c.createTournament(adaKey, api.CreateTournamentRequest{Name: "Restart", Format: "2p", System: "round_robin", TurnSeconds: 600}, "greedy", "random")
	c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+id+"/entries", adaKey, nil, nil)
	c.must(http.StatusCreated, "POST", "/api/v1/tournaments/"+id+"/entries", bobKey, nil, nil)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/start", adaKey, nil, nil)
	for round := 1; round <= 3; round++ {
		v := c.waitFor(id, "in its round", func(v api.TournamentView) bool {
			if len(v.Rounds) < round {
				return false
			}
			for _, tb := range v.Rounds[round-1].Tables {
				if tb.Match == "" {
					return false
				}
			}
			return true
		})
		// Restart before the humans of this round move.
		c.stop()
		c = openCup(t, c.path)
		for _, tb := range v.Rounds[round-1].Tables {
			for _, s := range tb.Seats {
				if k := keys[s.Player]; k != "" {
					if code, b := c.call("POST", "/api/v1/matches/"+tb.Match+"/resign", k, nil); code != http.StatusOK && code != http.StatusConflict {
						t.Fatalf("resign %s: %d %s", tb.Match, code, b)
					}
				}
			}
		}
	}
	v := c.waitFor(id, "finished", func(v api.TournamentView) bool { return v.Status == "finished" })
	var audit api.TournamentAudit
	c.must(http.StatusOK, "GET", "/api/v1/tournaments/"+id+"/audit", "", nil, &audit)
	if !audit.OK || len(v.Rounds) != 3 {
		t.Fatalf("after restarts: %d rounds, audit %+v", len(v.Rounds), audit)
	}
}

// TestTournamentOfPartners: a 2v2 Swiss of ten bots over three rounds: two tables and two byes
// a round, partners in seats 0 and 2, the standings equal to the offline recomputation.
func TestTournamentOfPartners(t *testing.T) {
	c := newCup(t)
	_, key := c.player("Organiser")
	id := c.createTournament(key, api.CreateTournamentRequest{Name: "Pairs", Format: "2v2", System: "swiss", Rounds: 3, Target: 50},
		repeatBots(10, "random", "greedy")...)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/start", key, nil, nil)
	v := c.waitFor(id, "finished", func(v api.TournamentView) bool { return v.Status == "finished" })
	for _, r := range v.Rounds {
		if len(r.Tables) != 2 || len(r.Byes) != 2 {
			t.Fatalf("round %d: %d tables, byes %v", r.Round, len(r.Tables), r.Byes)
		}
		for _, tb := range r.Tables {
			if tb.Scores[0] != tb.Scores[2] || tb.Scores[1] != tb.Scores[3] {
				t.Fatalf("round %d table %d: partners' scores differ: %v", r.Round, tb.Table, tb.Scores)
			}
		}
	}
	off := c.offline(id)
	if !off.OK {
		t.Fatalf("offline audit %+v", off)
	}
	checkStandings(t, v.Standings, off.Standings)
}

// TestRatedDuplicateTournament: a rated duplicate round of four bots, each entered once: every
// match is rated, dealt from the round's seed, and audits.
func TestRatedDuplicateTournament(t *testing.T) {
	c := newCup(t)
	_, key := c.player("Organiser")
	id := c.createTournament(key, api.CreateTournamentRequest{Name: "Rated", Format: "2p", System: "swiss", Rounds: 1, Duplicate: true, Rated: true, Target: 20},
		"random", "greedy", "pimc", "expert")
	c.must(http.StatusBadRequest, "POST", "/api/v1/tournaments/"+id+"/entries", key, map[string]string{"bot": "random"}, nil)
	c.must(http.StatusOK, "POST", "/api/v1/tournaments/"+id+"/start", key, nil, nil)
	v := c.waitFor(id, "finished", func(v api.TournamentView) bool { return v.Status == "finished" })
	for _, tb := range v.Rounds[0].Tables {
		var m struct {
			Rated  bool `json:"rated"`
			Seeded bool `json:"seeded"`
		}
		c.must(http.StatusOK, "GET", "/api/v1/matches/"+tb.Match, "", nil, &m)
		var audit struct {
			OK bool `json:"ok"`
		}
		b := c.must(http.StatusOK, "GET", "/api/v1/matches/"+tb.Match+"/audit", "", nil, &audit)
		if !m.Rated || !m.Seeded || !audit.OK {
			t.Fatalf("table %d: rated %v seeded %v, audit %s", tb.Table, m.Rated, m.Seeded, b)
		}
	}
}
