package api

import (
	"github.com/allfives/allfives/domain/tournament"
)

// toTournamentView is st as anyone may read it. A duplicate round's seed shows only once the
// round ended; its tables' matches are sealed until then (docs/tournaments.md).
func toTournamentView(st *tournament.State) TournamentView {
	sp := st.Spec
	v := TournamentView{
		ID: st.ID, Status: string(st.Status), CreatedAt: st.CreatedAt, Version: st.Version,
		Spec: TournamentSpec{Name: sp.Name, Format: string(sp.Format), System: string(sp.System), Duplicate: sp.Duplicate,
			Rated: sp.Rated, Target: sp.Target, TurnSeconds: sp.TurnSeconds, StartsAt: sp.StartsAt, MinEntries: sp.MinEntries, MaxEntries: sp.MaxEntries},
		Organiser: PlayerRef{ID: st.Organiser, Name: st.OrganiserName},
		Entries:   make([]TournamentEntry, len(st.Entries)), Rounds: make([]TournamentRound, len(st.Rounds)),
		PlannedRounds: st.PlannedRounds,
	}
	if st.Status == tournament.Upcoming {
		v.PlannedRounds = sp.PlannedRounds(len(st.Entries))
	}
	names := map[string]string{}
	for i, e := range st.Entries {
		v.Entries[i] = TournamentEntry{Player: e.Player, Name: e.Name, Bot: e.Bot, Rating: e.Rating}
		names[e.Player] = e.Name
	}
	for i, r := range st.Rounds {
		rv := TournamentRound{Round: r.Number, Status: "running", Commitment: r.Commitment, Seed: r.Seed,
			Tables: make([]TournamentTable, len(r.Pairing.Tables)), Byes: append([]string{}, r.Pairing.Byes...)}
		if st.Over(r) {
			rv.Status = "ended"
		}
		for ti, t := range r.Pairing.Tables {
			tv := TournamentTable{Table: ti, Match: r.Matches[ti]}
			for seat, p := range t.Seats {
				tv.Seats = append(tv.Seats, TournamentSeat{Seat: seat, Player: p, Name: names[p]})
			}
			if res := r.Results[ti]; res != nil && (st.Over(r) || r.Commitment == "") {
				// A duplicate round's scores wait for its end, as its matches do: a table's
				// score tells the others something of the cards they hold.
				tv.Scores = res.Scores
			}
			rv.Tables[ti] = tv
		}
		v.Rounds[i] = rv
	}
	v.Standings = toStandings(st.Standings(), names)
	if c := st.Cancel; c != nil {
		v.Cancelled = &TournamentCancelled{By: c.By, Reason: c.Reason}
	}
	return v
}

func toStandings(in []tournament.Standing, names map[string]string) []TournamentStanding {
	out := make([]TournamentStanding, len(in))
	for i, s := range in {
		out[i] = TournamentStanding{Rank: s.Rank, Player: s.Entrant, Name: names[s.Entrant], Points: s.Points, MatchPoints: s.MatchPoints,
			Buchholz: s.Buchholz, SonnebornBerger: s.SonnebornBerger, Wins: s.Wins, Played: s.Played, Byes: s.Byes}
	}
	return out
}

func toTournamentAudit(r tournament.Report, st *tournament.State) TournamentAudit {
	names := map[string]string{}
	if st != nil {
		for _, e := range st.Entries {
			names[e.Player] = e.Name
		}
	}
	out := TournamentAudit{OK: r.OK, Events: r.Events, HeadHash: r.HeadHash, FirstBadSeq: r.FirstBadSeq,
		Checks: make([]TournamentAuditCheck, len(r.Checks)), Standings: toStandings(r.Standings, names)}
	for i, c := range r.Checks {
		out.Checks[i] = TournamentAuditCheck{Name: c.Name, OK: c.OK, Detail: c.Detail}
	}
	return out
}
