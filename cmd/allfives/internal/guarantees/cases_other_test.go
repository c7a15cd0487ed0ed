package guarantees

import (
	"encoding/json"
	"net/http"

	"github.com/allfives/allfives/api"
)

func decode(b []byte, out any) bool { return json.Unmarshal(b, out) == nil }

// reads asks the paths given. (HEAD is asked of the match routes, where I2 names it.)
func reads(paths ...string) []request {
	var out []request
	for _, p := range paths {
		out = append(out, request{method: http.MethodGet, path: p})
	}
	return out
}

// ownPlayer is the player of the kind's own seat, else nil.
func ownPlayer(k *kind) *person {
	if h, ok := k.seats[k.own]; ok {
		return h.who
	}
	return nil
}

// otherCases are the cases of every route outside /api/v1/matches/:id.
var otherCases = map[string]cases{
	"GET /api/v1/players/:id": {onPlayer, false, func(s *suite, k *kind, c cred) []request {
		return reads("/api/v1/players/" + ownPlayer(k).id)
	}},
	"GET /api/v1/players/:id/matches": {onPlayer, false, func(s *suite, k *kind, c cred) []request {
		p := "/api/v1/players/" + ownPlayer(k).id + "/matches"
		return reads(p, p+"?turn=me", p+"?status=in_progress", p+"?status=finished", p+"?limit=1")
	}},
	"GET /api/v1/players/:id/ratings": {onPlayer, false, func(s *suite, k *kind, c cred) []request {
		p := "/api/v1/players/" + ownPlayer(k).id + "/ratings"
		return reads(p, p+"?format=2p", p+"?format=2p&limit=1")
	}},
	"GET /api/v1/tournaments/:id": {onTournament, false, func(s *suite, k *kind, c cred) []request {
		return reads("/api/v1/tournaments/" + k.tournament)
	}},
	"GET /api/v1/tournaments/:id/audit": {onTournament, false, func(s *suite, k *kind, c cred) []request {
		return reads("/api/v1/tournaments/" + k.tournament + "/audit")
	}},
	"GET /api/v1/tournaments/:id/export": {onTournament, false, func(s *suite, k *kind, c cred) []request {
		return reads("/api/v1/tournaments/" + k.tournament + "/export")
	}},
	"POST /api/v1/tournaments/:id/entries": {onTournament, false, func(s *suite, k *kind, c cred) []request {
		return []request{{method: http.MethodPost, path: "/api/v1/tournaments/" + k.tournament + "/entries", body: api.EnterTournamentRequest{}}}
	}},
	"DELETE /api/v1/tournaments/:id/entries/:player": {onTournament, false, func(s *suite, k *kind, c cred) []request {
		who := c.player
		if who == "" && ownPlayer(k) != nil {
			who = ownPlayer(k).id
		}
		return []request{{method: http.MethodDelete, path: "/api/v1/tournaments/" + k.tournament + "/entries/" + who}}
	}},
	"POST /api/v1/tournaments/:id/start": {onTournament, false, func(s *suite, k *kind, c cred) []request {
		return []request{{method: http.MethodPost, path: "/api/v1/tournaments/" + k.tournament + "/start"}}
	}},
	"POST /api/v1/tournaments/:id/cancel": {onTournament, true, func(s *suite, k *kind, c cred) []request {
		return []request{{method: http.MethodPost, path: "/api/v1/tournaments/" + k.tournament + "/cancel"}}
	}},
	"GET /api/v1/seeks/:id": {onSeek, false, func(s *suite, k *kind, c cred) []request {
		var out []request
		for _, id := range k.seeks {
			out = append(out, reads("/api/v1/seeks/"+id)...)
		}
		return out
	}},
	"DELETE /api/v1/seeks/:id": {onSeek, false, func(s *suite, k *kind, c cred) []request {
		var out []request
		for _, id := range k.seeks {
			out = append(out, request{method: http.MethodDelete, path: "/api/v1/seeks/" + id})
		}
		return out
	}},
	"POST /api/v1/matches": {onNothing, false, func(s *suite, k *kind, c cred) []request {
		body := api.CreateMatchRequest{Players: []api.PlayerRequest{human("Made Here"), human("Made There")}}
		return []request{{method: http.MethodPost, path: "/api/v1/matches", body: body}}
	}},
	"GET /api/v1/matches": {onNothing, false, func(s *suite, k *kind, c cred) []request {
		p := "/api/v1/matches"
		return reads(p, p+"?status=in_progress", p+"?status=finished", p+"?status=waiting", p+"?status=cancelled",
			p+"?limit=1", p+"?player=Ann")
	}},
	"POST /api/v1/players": {onNothing, false, func(s *suite, k *kind, c cred) []request {
		s.people.n++
		return []request{{method: http.MethodPost, path: "/api/v1/players", body: api.CreatePlayerRequest{Name: "Newcomer " + letters(s.people.n)}}}
	}},
	"GET /api/v1/players":             {onNothing, false, func(s *suite, k *kind, c cred) []request { return reads("/api/v1/players?name=Ada") }},
	"GET /api/v1/players/me":          {onNothing, false, func(s *suite, k *kind, c cred) []request { return reads("/api/v1/players/me") }},
	"GET /api/v1/players/me/stream":   {onNothing, false, func(s *suite, k *kind, c cred) []request { return reads("/api/v1/players/me/stream") }},
	"POST /api/v1/players/me/tickets": {onNothing, false, playerTicketCases},
	"POST /api/v1/players/me/key": {onNothing, true, func(s *suite, k *kind, c cred) []request {
		return []request{{method: http.MethodPost, path: "/api/v1/players/me/key"}}
	}},
	"GET /api/v1/leaderboard/:format": {onNothing, false, func(s *suite, k *kind, c cred) []request {
		return reads("/api/v1/leaderboard/2p", "/api/v1/leaderboard/3p", "/api/v1/leaderboard/4p", "/api/v1/leaderboard/2v2", "/api/v1/leaderboard/2p?limit=1")
	}},
	"POST /api/v1/tournaments": {onNothing, false, func(s *suite, k *kind, c cred) []request {
		body := api.CreateTournamentRequest{Name: "Cup " + letters(s.counts.requests%700+1), Format: "2p", System: "swiss", Rounds: 1}
		return []request{{method: http.MethodPost, path: "/api/v1/tournaments", body: body}}
	}},
	"GET /api/v1/tournaments": {onNothing, false, func(s *suite, k *kind, c cred) []request {
		return reads("/api/v1/tournaments", "/api/v1/tournaments?status=running")
	}},
	"POST /api/v1/seeks": {onNothing, false, func(s *suite, k *kind, c cred) []request {
		return []request{{method: http.MethodPost, path: "/api/v1/seeks", body: api.CreateSeekRequest{Format: "4p"}}}
	}},
	// Puzzles (docs/puzzles.md): made of the reviewed kind's match.
	"GET /api/v1/puzzles/next":          {onNothing, false, func(s *suite, k *kind, c cred) []request { return reads("/api/v1/puzzles/next") }},
	"POST /api/v1/puzzles/:id/attempts": {onNothing, false, puzzleAttemptCases},
	"GET /api/v1/players/:id/puzzles": {onPlayer, false, func(s *suite, k *kind, c cred) []request {
		p := "/api/v1/players/" + ownPlayer(k).id + "/puzzles"
		return reads(p, p+"?limit=1")
	}},
	"GET /healthz":             {onNothing, false, staticCase("/healthz")},
	"GET /readyz":              {onNothing, false, staticCase("/readyz")},
	"GET /metrics":             {onNothing, false, staticCase("/metrics")},
	"GET /openapi.yaml":        {onNothing, false, staticCase("/openapi.yaml")},
	"GET /swagger/*":           {onNothing, false, staticCase("/swagger/index.html")},
	"GET /":                    {onNothing, false, staticCase("/")},
	"GET /play/:id":            {onMatch, false, func(s *suite, k *kind, c cred) []request { return reads("/play/" + k.match) }},
	"GET /play":                {onNothing, false, staticCase("/play")},
	"GET /play/":               {onNothing, false, staticCase("/play/")},
	"GET /replay/:id":          {onMatch, false, func(s *suite, k *kind, c cred) []request { return reads("/replay/" + k.match) }},
	"GET /leaderboard/:format": {onNothing, false, staticCase("/leaderboard/2p")},
	"GET /player/:id":          {onPlayer, false, func(s *suite, k *kind, c cred) []request { return reads("/player/" + ownPlayer(k).id) }},
	"GET /rules":               {onNothing, false, staticCase("/rules")},
	"GET /tournaments":         {onNothing, false, staticCase("/tournaments")},
	"GET /tournaments/:id":     {onTournament, false, func(s *suite, k *kind, c cred) []request { return reads("/tournaments/" + k.tournament) }},
	"GET /assets/*":            {onNothing, false, staticCase("/assets/play.js")},
	"GET /puzzles":             {onNothing, false, staticCase("/puzzles")},
}

// staticCase reads one static path.
func staticCase(path string) func(*suite, *kind, cred) []request {
	return func(*suite, *kind, cred) []request { return reads(path) }
}

// playerTicketCases ask for a player's stream ticket, and open the stream with it.
func playerTicketCases(s *suite, k *kind, c cred) []request {
	a := s.do(request{method: http.MethodPost, path: "/api/v1/players/me/tickets", cred: c})
	var t api.TicketResponse
	if a.status != http.StatusCreated || !decode(a.body, &t) {
		return nil
	}
	return []request{{method: http.MethodGet, path: "/api/v1/players/me/stream?ticket=" + t.Ticket, noBearer: true}}
}

// puzzleAttemptCases attempt the puzzle the credential is offered, if any, with its first
// legal move (once to check that its source is no sealed match, then as the case), and a
// puzzle that does not exist.
func puzzleAttemptCases(s *suite, k *kind, c cred) []request {
	move := api.PuzzleMove{Action: "draw"}
	out := []request{{method: http.MethodPost, path: "/api/v1/puzzles/pznone/attempts", body: api.AttemptRequest{Move: &move}}}
	a := s.do(request{method: http.MethodGet, path: "/api/v1/puzzles/next", cred: c})
	var next api.NextPuzzleResponse
	if a.status != http.StatusOK || !decode(a.body, &next) || len(next.Puzzle.LegalMoves) == 0 {
		return out
	}
	first := next.Puzzle.LegalMoves[0]
	try := request{method: http.MethodPost, path: "/api/v1/puzzles/" + next.Puzzle.ID + "/attempts", body: api.AttemptRequest{Move: &first}}
	// I2: a puzzle is never of a match its round still seals (its answer names the source).
	var ans api.AttemptResponse
	if a := s.do(try); a.status == http.StatusOK && decode(a.body, &ans) {
		if m := s.truth.of(ans.Source.Match); m != nil && m.sealed {
			s.t.Errorf("puzzle %s is of match %s, which its round still seals", next.Puzzle.ID, ans.Source.Match)
		}
	}
	return append(out, try)
}
