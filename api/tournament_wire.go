package api

import (
	"encoding/json"
	"time"

	"github.com/allfives/allfives/domain/tournament"
)

// The wire types of tournaments (docs/api-tournaments.md, "Tournaments").

// CreateTournamentRequest asks for a new tournament.
type CreateTournamentRequest struct {
	Name string `json:"name" example:"Friday club"`
	// Format is the tables' shape: 2p, 3p, 4p or 2v2 (partners in seats 0+2 and 1+3).
	Format string `json:"format" enums:"2p,3p,4p,2v2" example:"2p"`
	// System pairs the rounds, one of the enum; docs/tournaments.md says what each asks of the
	// format and the rounds.
	System string `json:"system" enums:"round_robin,swiss" enumsfrom:"systems" example:"swiss"`
	// Rounds is a Swiss's number of rounds; a round robin's is fixed by its entries (leave it out).
	Rounds int `json:"rounds,omitempty" minimum:"1" maximum:"20" example:"4"`
	// Duplicate deals every table of a round the same cards and scores each seat against the
	// seats that held them at the other tables.
	Duplicate bool `json:"duplicate,omitempty"`
	// Rated rates every match as any rated match (docs/ratings.md).
	Rated bool `json:"rated,omitempty"`
	// Target is each match's, a multiple of 5 from 5 to 1000; left out, the rules' default. A
	// target given is checked as given: 0 is refused like any other outside that range.
	Target int `json:"target,omitempty" minimum:"5" maximum:"1000" multipleOf:"5" example:"150"`
	// TurnSeconds is each match's clock, 10 to 604800; left out, 60 (every tournament match has
	// one).
	TurnSeconds int `json:"turn_seconds,omitempty" minimum:"10" maximum:"604800" example:"60"`
	// StartsAt starts the tournament by itself, at most 30 days ahead; without it the organiser
	// starts it.
	StartsAt *time.Time `json:"starts_at,omitempty" format:"date-time"`
	// MinEntries (default: one table) and MaxEntries (default 256, a round robin's 32); the
	// format may ask for more (at least one table).
	MinEntries int `json:"min_entries,omitempty" minimum:"2" maximum:"256" example:"4"`
	MaxEntries int `json:"max_entries,omitempty" minimum:"2" maximum:"256" example:"32"`
}

// EnterTournamentRequest enters the caller, or, from the organiser, a bot of that strategy.
type EnterTournamentRequest struct {
	Bot string `json:"bot,omitempty" enums:"random,level-1,level-2,level-3,greedy,level-4,level-5,level-6,pimc,level-7,expert,level-8" enumsfrom:"bots" example:"greedy"`
}

// TournamentEntry is one entry.
type TournamentEntry struct {
	// Player is the entrant's player id: a bot's player (bot-greedy, then bot-greedy-2 for a
	// second entry of it) for a bot.
	Player string  `json:"player" example:"5f2b7c1e9a0d4e3f8b6a1c2d3e4f5a6b"`
	Name   string  `json:"name" example:"Ada"`
	Bot    string  `json:"bot,omitempty" enums:"random,level-1,level-2,level-3,greedy,level-4,level-5,level-6,pimc,level-7,expert,level-8" enumsfrom:"bots" example:"greedy"`
	Rating float64 `json:"rating"`
}

// TournamentSpec is what the tournament was created with, defaults filled.
type TournamentSpec struct {
	Name        string     `json:"name"`
	Format      string     `json:"format" enums:"2p,3p,4p,2v2"`
	System      string     `json:"system" enums:"round_robin,swiss" enumsfrom:"systems"`
	Duplicate   bool       `json:"duplicate"`
	Rated       bool       `json:"rated"`
	Target      int        `json:"target,omitempty"`
	TurnSeconds int        `json:"turn_seconds,omitempty"`
	StartsAt    *time.Time `json:"starts_at,omitempty" format:"date-time"`
	MinEntries  int        `json:"min_entries"`
	MaxEntries  int        `json:"max_entries"`
}

// TournamentSeat is one seat of a table.
type TournamentSeat struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	Name   string `json:"name"`
}

// TournamentTable is one table of a round: its seats, its match (once created) and, once the
// match ended, each seat's side's final score.
type TournamentTable struct {
	Table  int              `json:"table"`
	Seats  []TournamentSeat `json:"seats"`
	Match  string           `json:"match,omitempty"`
	Scores []int            `json:"scores,omitempty"`
}

// TournamentRound is one round: running or ended; a duplicate round's commitment, and its
// seed once the round ended.
type TournamentRound struct {
	Round      int               `json:"round"`
	Status     string            `json:"status" enums:"running,ended"`
	Commitment string            `json:"commitment,omitempty"`
	Seed       string            `json:"seed,omitempty"`
	Tables     []TournamentTable `json:"tables"`
	Byes       []string          `json:"byes"`
}

// TournamentStanding is one line of the standings (docs/tournaments.md, "Standings").
type TournamentStanding struct {
	Rank            int     `json:"rank"`
	Player          string  `json:"player"`
	Name            string  `json:"name"`
	Points          float64 `json:"points"`
	MatchPoints     float64 `json:"match_points"`
	Buchholz        float64 `json:"buchholz"`
	SonnebornBerger float64 `json:"sonneborn_berger"`
	Wins            int     `json:"wins"`
	Played          int     `json:"played"`
	Byes            int     `json:"byes"`
}

// TournamentView is a tournament as anyone may read it.
type TournamentView struct {
	ID     string         `json:"id" example:"4c1d9e0f2b3a4c5d6e7f8091a2b3c4d5"`
	Status string         `json:"status" enums:"upcoming,running,finished,cancelled"`
	Spec   TournamentSpec `json:"spec"`
	// Organiser is the player who created the tournament.
	Organiser     PlayerRef            `json:"organiser"`
	CreatedAt     time.Time            `json:"created_at" format:"date-time"`
	Version       int                  `json:"version"`
	Entries       []TournamentEntry    `json:"entries"`
	PlannedRounds int                  `json:"planned_rounds"`
	Rounds        []TournamentRound    `json:"rounds"`
	Standings     []TournamentStanding `json:"standings"`
	// Cancelled says who cancelled (a player id, or server) and why (organiser,
	// too_few_entries).
	Cancelled *TournamentCancelled `json:"cancelled,omitempty"`
}

// PlayerRef names a player.
type PlayerRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// TournamentCancelled is who cancelled a tournament, and why.
type TournamentCancelled struct {
	By     string `json:"by"`
	Reason string `json:"reason" enums:"organiser,too_few_entries"`
}

// TournamentList is a page of tournaments, newest first.
type TournamentList struct {
	Tournaments []TournamentView `json:"tournaments"`
}

// TournamentEvent is one event of a tournament's log with its links: data is the payload
// exactly as hashed, hash = sha256(prev_hash || seq as 8 bytes big-endian || type || data).
type TournamentEvent struct {
	Seq      int             `json:"seq"`
	Type     string          `json:"type" enums:"tournament.created,entry.added,entry.withdrawn,tournament.started,round.started,table.started,table.ended,round.ended,tournament.ended,tournament.cancelled"`
	At       time.Time       `json:"at" format:"date-time"`
	Data     json.RawMessage `json:"data" swaggertype:"object"`
	PrevHash string          `json:"prev_hash"`
	Hash     string          `json:"hash"`
}

// TournamentExport is a tournament's whole record: its view and its log.
type TournamentExport struct {
	Tournament TournamentView    `json:"tournament"`
	Events     []TournamentEvent `json:"events"`
}

// TournamentAuditCheck is one check of a tournament's audit.
type TournamentAuditCheck struct {
	Name   string `json:"name" enums:"chain,log,pairings,matches,standings"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// TournamentAudit is a tournament's audit (docs/tournaments.md, "Audit").
type TournamentAudit struct {
	OK          bool                   `json:"ok"`
	Events      int                    `json:"events"`
	HeadHash    string                 `json:"head_hash"`
	FirstBadSeq *int                   `json:"first_bad_seq" extensions:"x-nullable"`
	Checks      []TournamentAuditCheck `json:"checks"`
	Standings   []TournamentStanding   `json:"standings"`
}

// toTournamentEvents is the log as the wire carries it.
func toTournamentEvents(links []tournament.Link) []TournamentEvent {
	out := make([]TournamentEvent, len(links))
	for i, l := range links {
		out[i] = TournamentEvent{Seq: l.Seq, Type: string(l.Type), At: l.At, Data: l.Data, PrevHash: l.PrevHash, Hash: l.Hash}
	}
	return out
}
