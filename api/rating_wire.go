package api

import (
	"time"

	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/openskill"
)

// RatingValue is a rating at one moment: the model's mean and standard deviation, and the
// displayed rating, mu - 3 sigma (docs/ratings.md, "The displayed rating").
type RatingValue struct {
	Mu     float64 `json:"mu" example:"27.6353895"`
	Sigma  float64 `json:"sigma" example:"8.0659014"`
	Rating float64 `json:"rating" example:"3.4376853"`
}

// FormatRating is a player's rating in one format.
type FormatRating struct {
	Mu     float64 `json:"mu" example:"27.6353895"`
	Sigma  float64 `json:"sigma" example:"8.0659014"`
	Rating float64 `json:"rating" example:"3.4376853"`
	// Matches and Wins count the player's rated matches of the format that counted, and those
	// its side won (docs/ratings.md, "Farming").
	Matches int `json:"matches" example:"12"`
	Wins    int `json:"wins" example:"7"`
	// EstablishedMatches counts the rated matches of the format against opponents who were
	// established when they met: every player of every other side a bot, or a player whose
	// rating was not provisional then (docs/ratings.md, "Standing"). Only those count, so it
	// equals matches. 10 are needed to rank.
	EstablishedMatches int `json:"established_matches" example:"12"`
	// Provisional: fewer than 10 rated matches of the format counted, or sigma above 6; a
	// provisional rating is left off the leaderboard, and a match against it counts for
	// nobody (docs/ratings.md, "Provisional", "Standing" and "Farming").
	Provisional bool `json:"provisional"`
}

// RatingHistoryItem is what one rated match did to the player's rating.
type RatingHistoryItem struct {
	MatchID string      `json:"match_id" example:"9f1c2b3a4d5e6f708192a3b4c5d6e7f8"`
	Format  string      `json:"format" enums:"2p,3p,4p,2v2"`
	EndedAt time.Time   `json:"ended_at" format:"date-time"`
	Seat    int         `json:"seat"`
	Won     bool        `json:"won"`
	Before  RatingValue `json:"before"`
	After   RatingValue `json:"after"`
	// AgainstEstablished says the match counted: every player of every other side was
	// established when it was rated. When false, after equals before and the match is in none
	// of the format's figures (docs/ratings.md, "Farming").
	AgainstEstablished bool `json:"against_established"`
}

// PlayerRatingsResponse is a player's ratings, per format in which a rated match counted for
// it (any other format is absent), and its history of changes, newest first, one per rated
// match, counted or not.
type PlayerRatingsResponse struct {
	Ratings map[string]FormatRating `json:"ratings"`
	History []RatingHistoryItem     `json:"history"`
	// NextCursor fetches the next page of the history; null on the last page.
	NextCursor *string `json:"next_cursor" extensions:"x-nullable"`
	// Program says the player is a program: a bot, or a player made as one (docs/engine.md).
	Program bool `json:"program,omitempty"`
}

// LeaderboardPlayer names a player on the leaderboard.
type LeaderboardPlayer struct {
	ID   string `json:"id" example:"bot-expert"`
	Name string `json:"name" example:"bot-expert"`
	// Program says the player is a program: a bot, or a player made as one (docs/engine.md).
	Program bool `json:"program,omitempty"`
}

// LeaderboardEntry is one ranked player of a format.
type LeaderboardEntry struct {
	// Rank is the place by rating: equal ratings share one, and the next rank skips as many
	// (1, 2, 2, 4).
	Rank    int               `json:"rank" example:"1"`
	Player  LeaderboardPlayer `json:"player"`
	Rating  float64           `json:"rating" example:"21.4"`
	Mu      float64           `json:"mu" example:"30.1"`
	Sigma   float64           `json:"sigma" example:"2.9"`
	Matches int               `json:"matches" example:"812"`
	Wins    int               `json:"wins" example:"540"`
}

// LeaderboardResponse is one page of a format's leaderboard, highest rating first.
type LeaderboardResponse struct {
	Format  string             `json:"format" enums:"2p,3p,4p,2v2"`
	Players []LeaderboardEntry `json:"players"`
	// NextCursor fetches the next page; null on the last page.
	NextCursor *string `json:"next_cursor" extensions:"x-nullable"`
}

// SeatRatingChange is one seat's rating before and after a finished rated match; after equals
// before when the match did not count for the seat's player (docs/ratings.md, "Farming").
type SeatRatingChange struct {
	Seat   int         `json:"seat"`
	Player string      `json:"player" example:"bot-greedy"`
	Format string      `json:"format" enums:"2p,3p,4p,2v2"`
	Before RatingValue `json:"before"`
	After  RatingValue `json:"after"`
}

func toRatingValue(r openskill.Rating) RatingValue {
	return RatingValue{Mu: r.Mu, Sigma: r.Sigma, Rating: r.Ordinal()}
}

func toSeatRatingChanges(cs []ratings.Change) []SeatRatingChange {
	out := make([]SeatRatingChange, len(cs))
	for i, c := range cs {
		out[i] = SeatRatingChange{Seat: c.Seat, Player: c.Player, Format: string(c.Format), Before: toRatingValue(c.Before), After: toRatingValue(c.After)}
	}
	return out
}
