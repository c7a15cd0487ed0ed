package api

import (
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/referee"
)

// The wire types of the API (docs/api.md). They are separate from the domain's types so that what
// the API promises (and documents through swag) changes only when this file does. The field
// names are the API's (docs/api.md); swag marks every field without omitempty as required
// (--requiredByDefault), which lets the contract tests catch a missing field.

// CreateMatchRequest is the body of POST /api/v1/matches.
type CreateMatchRequest struct {
	// Players in seat order: 2, 3 or 4.
	Players []PlayerRequest `json:"players" validate:"required,min=2,max=4"`
	// Partnerships puts seats 0+2 and 1+3 on one side each; 4 players only.
	Partnerships bool `json:"partnerships,omitempty"`
	// Target score, a multiple of 5 from 5 to 1000; omitted: 250 with two sides, else 200.
	// A target given is checked as given: 0 is refused like any other outside that range.
	Target *int `json:"target,omitempty" minimum:"5" maximum:"1000" multipleOf:"5"`
	// Seed (64 hex characters) makes the deals reproducible; the match is then marked seeded.
	// Whoever chooses it can compute every hand, so a match with an open seat refuses it
	// (SEED_WITH_OPEN_SEATS).
	Seed string `json:"seed,omitempty" minLength:"64" maxLength:"64" example:"1220bce908f962d172dd71edf7f3215397eaadbf54c4d03b1fc8334e91eaf12a"`
	// Listed puts a match with open seats in the lobby (GET /api/v1/matches?status=waiting),
	// where anyone may join without an invite.
	Listed bool `json:"listed,omitempty"`
	// TurnSeconds is the clock: a human seat that has not acted in time has its turn played by
	// the greedy bot. Omitted: no clock.
	TurnSeconds *int `json:"turn_seconds,omitempty" minimum:"10" maximum:"604800" example:"60"`
	// AutoplayAfter is how many timeouts in a row hand a seat to its bot (with a clock; default 3).
	AutoplayAfter *int `json:"autoplay_after,omitempty" minimum:"1" maximum:"100" example:"3"`
	// Rated makes the match move its players' ratings (docs/ratings.md): every seat must be
	// bound to a player ("player": "me" or a player's id) or be a bot, no bot strategy twice,
	// and no seed may be chosen. Its open seats are joined with a player key only.
	Rated bool `json:"rated,omitempty"`
}

// PlayerRequest is one seat in a create request.
type PlayerRequest struct {
	// Name is shown to everyone, in its PRECIS Nickname form (RFC 8266: NFKC, runs of spaces as
	// one, trimmed). No control characters, line separators, bidirectional marks or invisible
	// characters (format and default-ignorable ones: zero-width spaces, soft hyphens...), at
	// least one visible character, and no mix of scripts beyond Unicode's moderately restrictive
	// level (UTS #39: one script, or Latin with one other that is not Cyrillic or Greek). No two
	// seats of a match may have names equal ignoring case and width ("Ada", "ada", "ＡＤＡ") or
	// that look alike ("Bob", "Вob" with a Cyrillic В). Required for an anonymous human seat. A
	// seat bound to a player ("player": "me") shows the player's name: leave it out or give that
	// name (another is INVALID_REQUEST). A bot seat may leave it out: it is then named after
	// its bot's player, "bot-greedy" ("bot-greedy 2" for a second greedy bot). An open seat has
	// none (the player who joins names it).
	Name string `json:"name,omitempty" minLength:"1" maxLength:"64" example:"Ada"`
	// Kind open is a seat for someone to join with the invite the create answer gives.
	Kind string `json:"kind" validate:"required" enums:"human,bot,open" example:"human"`
	// Bot names the strategy of a bot seat (docs/bots.md), one of the enum, which lists them
	// weakest first as the bots' ratings measured them; only with kind bot.
	Bot string `json:"bot,omitempty" enums:"random,level-1,level-2,level-3,greedy,level-4,level-5,level-6,pimc,level-7,expert,level-8" enumsfrom:"bots" example:"greedy"`
	// Player binds a human seat to a lasting player: "me" is the creator, whose player key
	// is then the Authorization (the seat shows the player's name); another
	// player's id reserves the seat for that player (a challenge: an open seat, without
	// name or invite, that only that player's key joins). One player holds at most one seat
	// of a match (ALREADY_SEATED).
	Player string `json:"player,omitempty" maxLength:"64" example:"me"`
}

// MoveRequest is the body of POST /api/v1/matches/{id}/moves.
type MoveRequest struct {
	Action string `json:"action" validate:"required" enums:"play,draw,pass" example:"play"`
	// Tile to play, either pip order ("6-4" is "4-6"); only with action play.
	Tile *string `json:"tile,omitempty" example:"4-6"`
	// End to play on; may be left out when the tile fits only one end.
	End *string `json:"end,omitempty" enums:"left,right" example:"left"`
}

// Seat is a seat as everyone sees it. An open seat has kind open and an empty name.
type Seat struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Kind  string `json:"kind" enums:"human,bot,open"`
	Bot   string `json:"bot,omitempty" enums:"random,level-1,level-2,level-3,greedy,level-4,level-5,level-6,pimc,level-7,expert,level-8" enumsfrom:"bots"`
	Side  int    `json:"side"`
	Tiles int    `json:"tiles"`
	// Autoplay says the seat timed out too often and its bot plays it until its player resumes.
	Autoplay bool `json:"autoplay,omitempty"`
	// Deadline is when the seat must have acted: only on the seat to move, a human on the clock.
	Deadline *time.Time `json:"deadline,omitempty" format:"date-time"`
	// Player is the id of the lasting player bound to the seat; absent for an anonymous seat.
	Player string `json:"player,omitempty"`
	// ReservedFor says, on an open seat kept for someone (a challenge, a rematch), for whom:
	// only that one takes it, or declines it. Absent on every other seat.
	ReservedFor *Reservation `json:"reserved_for,omitempty"`
	// Resigned says the seat's holder resigned: its bot plays it to the end.
	Resigned bool `json:"resigned,omitempty"`
	// Program says a program plays the seat: a bot, or a player made as a program
	// (docs/engine.md). On state reads and moves' answers; absent for a person.
	Program bool `json:"program,omitempty"`
}

// OpenEnd is one end of the line.
type OpenEnd struct {
	Pip    int  `json:"pip" minimum:"0" maximum:"6"`
	Double bool `json:"double"`
}

// Hand is the hand in play.
type Hand struct {
	Number int `json:"number"`
	// Line left to right, each tile oriented as it lies.
	Line []string `json:"line" example:"3-6,6-6,6-2"`
	// Left and Right are null before the lead, when the line has no ends yet.
	Left     *OpenEnd `json:"left" extensions:"x-nullable"`
	Right    *OpenEnd `json:"right" extensions:"x-nullable"`
	Total    int      `json:"total"`
	Boneyard int      `json:"boneyard"`
	Turn     int      `json:"turn"`
	// Hands is every seat's tiles, only in the replay of a finished match.
	Hands [][]string `json:"hands,omitempty"`
	// BoneyardTiles is the boneyard in draw order, only in the replay of a finished match.
	BoneyardTiles []string `json:"boneyard_tiles,omitempty"`
}

// You is the caller's own seat and tiles; only with a seat token.
type You struct {
	Seat  int      `json:"seat"`
	Tiles []string `json:"tiles"`
}

// LegalMove is one action the seat to move may take. A play carries tile, end and the points
// the play itself scores (not a going-out bonus).
type LegalMove struct {
	Action string `json:"action" enums:"play,draw,pass"`
	Tile   string `json:"tile,omitempty" example:"4-6"`
	End    string `json:"end,omitempty" enums:"left,right"`
	Points *int   `json:"points,omitempty"`
}

// MatchView is the match as the caller may see it.
type MatchView struct {
	ID           string    `json:"id"`
	Status       string    `json:"status" enums:"waiting,in_progress,finished,expired,cancelled"`
	Version      int       `json:"version"`
	Target       int       `json:"target"`
	Partnerships bool      `json:"partnerships"`
	Seeded       bool      `json:"seeded"`
	Commitment   string    `json:"commitment"`
	CreatedAt    time.Time `json:"created_at" format:"date-time"`
	Seats        []Seat    `json:"seats"`
	Scores       []int     `json:"scores"`
	// Hand is null while the match waits for players; a finished match keeps its last table,
	// with every seat's tiles in hands.
	Hand *Hand `json:"hand" extensions:"x-nullable"`
	You  *You  `json:"you,omitempty"`
	// LegalMoves is the caller's legal actions now: [] when it is not the caller's turn.
	LegalMoves []LegalMove `json:"legal_moves"`
	// WinnerSide appears once the match is finished.
	WinnerSide *int `json:"winner_side,omitempty"`
	// Turn is the seat to act; null when none is (waiting, finished, expired).
	Turn *int `json:"turn" extensions:"x-nullable"`
	// Listed says the match is in the lobby while it waits.
	Listed bool `json:"listed"`
	// OpenSeats lists the seats open to anyone (with the seat's invite, or from the lobby);
	// a seat reserved for someone is not among them.
	OpenSeats []int `json:"open_seats"`
	// TurnSeconds is the clock, when the match has one.
	TurnSeconds int `json:"turn_seconds,omitempty"`
	// AutoplayAfter is how many timeouts in a row hand a seat to its bot, with a clock.
	AutoplayAfter int `json:"autoplay_after,omitempty"`
	// NextMatchID is the rematch of a finished match, once one was asked for (POST
	// /api/v1/matches/{id}/rematch); state reads carry it.
	NextMatchID string `json:"next_match_id,omitempty"`
	// Rated says the match moves its players' ratings (docs/ratings.md).
	Rated bool `json:"rated,omitempty"`
	// RatingChanges is, once a finished rated match is rated, each seat's rating before and
	// after it; state reads carry it.
	RatingChanges []SeatRatingChange `json:"rating_changes,omitempty"`
	// OfferExpiresAt is when a waiting offer (a rematch) is cancelled unless every seat it
	// reserves is taken; only while it waits.
	OfferExpiresAt *time.Time `json:"offer_expires_at,omitempty" format:"date-time"`
	// Cancelled says, on a cancelled match, who cancelled it and why.
	Cancelled *Cancellation `json:"cancelled,omitempty"`
	// BranchOf says, on a branch (docs/review.md, "Play on"), the match and the step it was
	// played on from.
	BranchOf *MatchBranch `json:"branch_of,omitempty"`
	// Review says, on a finished match, where its review stands (docs/review.md, "In the
	// match's view"): none (never asked for: POST /review asks), running (queued or being
	// computed: GET /review until it is done), done (GET /review answers it) or failed (the
	// record could not be reviewed: POST asks again). State reads and the export carry it;
	// absent while the match is live, on a sealed match, and from a server without reviews.
	Review string `json:"review,omitempty" enums:"none,running,done,failed"`
}

// SeatToken is a human seat's secret, shown once.
type SeatToken struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

// SeatInvite is an open seat's secret invite (128 random bits), shown once: pass it to the
// player who is to take the seat.
type SeatInvite struct {
	Seat   int    `json:"seat"`
	Invite string `json:"invite" example:"lW3Xb0yQm8m3aN6tR2pX4g"`
}

// CreateMatchResponse is the answer to a create: the match as a spectator sees it, a token for
// each named human seat and an invite for each open seat.
type CreateMatchResponse struct {
	Match   MatchView    `json:"match"`
	Tokens  []SeatToken  `json:"tokens"`
	Invites []SeatInvite `json:"invites"`
}

// JoinRequest is the body of POST /api/v1/matches/{id}/seats/{seat}/join.
type JoinRequest struct {
	// Name is shown to everyone, under the rules of a name at create; it may not be another
	// seat's name ignoring case and width, nor look like it. Joining with a player key, the
	// seat shows the player's name: leave it out or give that name (another is
	// INVALID_REQUEST).
	Name string `json:"name,omitempty" minLength:"1" maxLength:"64" example:"Bo"`
	// Invite is the seat's invite from the create answer; not needed for a listed match.
	Invite string `json:"invite,omitempty" example:"lW3Xb0yQm8m3aN6tR2pX4g"`
}

// JoinResponse is the answer to a join: the seat's token, shown once, and the match as the
// seat sees it.
type JoinResponse struct {
	Seat  int       `json:"seat"`
	Token string    `json:"token"`
	Match MatchView `json:"match"`
}

// MoveResponse is the answer to a move: the events it caused (bots' included) as the caller
// may see them, and the caller's view after them.
type MoveResponse struct {
	Events []Event   `json:"events"`
	Match  MatchView `json:"match"`
}

// LegalMovesResponse lists the caller's legal actions; empty when it is not their turn.
type LegalMovesResponse struct {
	Seat       int         `json:"seat"`
	Version    int         `json:"version"`
	LegalMoves []LegalMove `json:"legal_moves"`
}

// EventsResponse is a page of the event log in seq order.
type EventsResponse struct {
	Events  []Event `json:"events"`
	Version int     `json:"version"`
}

// Player is a seat in the history.
type Player struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	Kind string `json:"kind" enums:"human,bot,open"`
	Bot  string `json:"bot,omitempty" enums:"random,level-1,level-2,level-3,greedy,level-4,level-5,level-6,pimc,level-7,expert,level-8" enumsfrom:"bots"`
	// Player is the id of the lasting player bound to the seat; absent for an anonymous seat.
	Player string `json:"player,omitempty"`
	// ReservedFor says, on an open seat kept for someone (a challenge, a rematch), for whom.
	ReservedFor *Reservation `json:"reserved_for,omitempty"`
}

// HistoryItem is one match in the history.
type HistoryItem struct {
	ID        string    `json:"id"`
	Status    string    `json:"status" enums:"waiting,in_progress,finished,expired,cancelled"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
	UpdatedAt time.Time `json:"updated_at" format:"date-time"`
	Players   []Player  `json:"players"`
	Scores    []int     `json:"scores"`
	// WinnerSide is null while the match is in progress.
	WinnerSide *int `json:"winner_side" extensions:"x-nullable"`
	Hands      int  `json:"hands"`
	// Turn is the seat to act; null when none is. A client holding several tokens finds
	// where it is to move without reading every match.
	Turn *int `json:"turn" extensions:"x-nullable"`
	// OpenSeats lists the seats open to anyone (the lobby's matches have some); a seat
	// reserved for someone is not among them.
	OpenSeats []int `json:"open_seats"`
	// Listed, Target and TurnSeconds are what the lobby shows of a waiting match; target and
	// turn_seconds are left out when not recorded (matches older than the lobby) or no clock.
	Listed      bool `json:"listed"`
	Target      int  `json:"target,omitempty"`
	TurnSeconds int  `json:"turn_seconds,omitempty"`
	// Seeded says the creator chose the seed, and so can compute every hand.
	Seeded bool `json:"seeded"`
	// NextMatchID is the rematch of a finished match, once one was asked for (POST
	// /api/v1/matches/{id}/rematch).
	NextMatchID string `json:"next_match_id,omitempty"`
}

// HistoryResponse is one page of the history, newest first.
type HistoryResponse struct {
	Matches []HistoryItem `json:"matches"`
	// NextCursor fetches the next page; null on the last page.
	NextCursor *string `json:"next_cursor" extensions:"x-nullable"`
}

// Status is the body of /healthz and /readyz.
type Status struct {
	Status string `json:"status" enums:"ok,ready" example:"ok"`
}

// ToMatchView is the wire form of a domain view: the one place a view becomes JSON.
func ToMatchView(v domain.MatchView) MatchView {
	out := MatchView{
		ID: v.ID, Status: string(v.Status), Version: v.Version, Target: v.Target,
		Partnerships: v.Partnerships, Seeded: v.Seeded, Commitment: v.Commitment,
		CreatedAt: v.CreatedAt, Scores: nonNil(v.Scores), Seats: make([]Seat, len(v.Seats)),
		LegalMoves: toLegalMoves(v.LegalMoves), WinnerSide: v.WinnerSide,
		Turn: v.Turn, Listed: v.Listed, OpenSeats: nonNil(v.OpenSeats), TurnSeconds: v.TurnSeconds, AutoplayAfter: v.AutoplayAfter,
		Rated: v.Rated, OfferExpiresAt: v.OfferDeadline, Cancelled: toCancellation(v.Cancelled),
	}
	if b := v.BranchOf; b != nil {
		out.BranchOf = &MatchBranch{Match: b.Match, Step: b.Step}
	}
	for i, s := range v.Seats {
		out.Seats[i] = Seat{Seat: s.Seat, Name: s.Name, Kind: string(s.Kind), Bot: s.Bot, Side: s.Side, Tiles: s.Tiles, Autoplay: s.Autoplay, Deadline: s.Deadline, Player: s.Player,
			ReservedFor: toReservation(s.ReservedFor), Resigned: s.Resigned, Program: s.Kind == domain.Bot}
	}
	if h := v.Hand; h != nil {
		line := make([]string, len(h.Line))
		for i, l := range h.Line {
			line[i] = l.String()
		}
		out.Hand = &Hand{
			Number: h.Number, Line: line, Total: h.Total, Boneyard: h.Boneyard, Turn: h.Turn,
			Left: toOpenEnd(h.Left), Right: toOpenEnd(h.Right),
		}
		for _, tiles := range h.Hands {
			out.Hand.Hands = append(out.Hand.Hands, domain.TileNames(tiles))
		}
		out.Hand.BoneyardTiles = tileNamesOrNil(h.BoneyardTiles)
	}
	if v.You != nil {
		out.You = &You{Seat: v.You.Seat, Tiles: domain.TileNames(v.You.Tiles)}
	}
	return out
}

func toOpenEnd(e *domain.OpenEnd) *OpenEnd {
	if e == nil {
		return nil
	}
	return &OpenEnd{Pip: e.Pip, Double: e.Double}
}

func toLegalMoves(in []domain.LegalMove) []LegalMove {
	out := make([]LegalMove, len(in))
	for i, m := range in {
		out[i] = LegalMove{Action: m.Action.String()}
		if m.Action == domain.ActionPlay {
			points := m.Points
			out[i].Tile, out[i].End, out[i].Points = m.Tile.String(), m.End.String(), &points
		}
	}
	return out
}

func toHistoryItem(h referee.HistoryItem) HistoryItem {
	s := h.Summary
	players := make([]Player, len(s.Players))
	for i, p := range s.Players {
		players[i] = toPlayer(p)
	}
	return HistoryItem{
		ID: h.ID, Status: string(s.Status), CreatedAt: h.CreatedAt, UpdatedAt: s.UpdatedAt,
		Players: players, Scores: nonNil(s.Scores), WinnerSide: s.WinnerSide, Hands: s.Hands,
		Turn: s.Turn, OpenSeats: nonNil(s.OpenSeats), Listed: s.Listed, Target: s.Target, TurnSeconds: s.TurnSeconds,
		Seeded: s.Seeded, NextMatchID: h.NextMatchID,
	}
}

// nonNil keeps an empty list a JSON [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
