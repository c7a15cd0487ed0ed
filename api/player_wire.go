package api

import (
	"time"

	"github.com/allfives/allfives/domain/app/players"
)

// CreatePlayerRequest is the body of POST /api/v1/players.
type CreatePlayerRequest struct {
	// Name is the player's name, under the rules of a seat's name; no other player may go by
	// it ignoring case and width, nor by a name that looks like it (UTS #39 confusables: "Bob",
	// "Вob" and "Βob" are one name). Names that begin with "bot-", or look as if they did, are
	// the bots'. Any of these is NAME_TAKEN.
	Name string `json:"name" validate:"required" minLength:"1" maxLength:"64" example:"Ada"`
	// Program makes the player a program (an engine, docs/engine.md) rather than a person: its
	// profile, seats, ratings and leaderboard rows say so. It cannot be changed later.
	Program bool `json:"program,omitempty"`
}

// PlayerView is a lasting player as anyone may see it. It never carries the key.
type PlayerView struct {
	// ID is the player's public id.
	ID string `json:"id" example:"5f2b7c1e9a0d4e3f8b6a1c2d3e4f5a6b"`
	// Name is the name as kept: its enforced form ("ＡＤＡ" is kept as "ADA").
	Name      string    `json:"name" example:"Ada"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
	// Program says the player is a program (docs/engine.md); absent for a person.
	Program bool `json:"program,omitempty"`
}

// CreatePlayerResponse is the answer to POST /api/v1/players: the player and its key, which
// is shown only here.
type CreatePlayerResponse struct {
	Player PlayerView `json:"player"`
	// Key authenticates the player: send it as Authorization: Bearer followed by the key. It
	// is shown once; the server keeps only its hash.
	Key string `json:"key" example:"afk_Jm1pQ2h4c0F2bDlWc3pKd2xQb3FzY2F1ZE5lT2hYTWk"`
}

// FoundPlayerResponse is the answer to GET /api/v1/players?name=: the player who goes by the
// name.
type FoundPlayerResponse struct {
	Player PlayerView `json:"player"`
}

// PlayerKeyResponse is the answer to POST /api/v1/players/me/key: the player's new key,
// shown only here. The key it replaces is refused from now on.
type PlayerKeyResponse struct {
	Key string `json:"key" example:"afk_Jm1pQ2h4c0F2bDlWc3pKd2xQb3FzY2F1ZE5lT2hYTWk"`
}

// PlayerProfile is a player's public profile. (The matches it played and won per format, and
// its ratings, join it once seats are bound to players.)
type PlayerProfile struct {
	ID        string    `json:"id" example:"5f2b7c1e9a0d4e3f8b6a1c2d3e4f5a6b"`
	Name      string    `json:"name" example:"Ada"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
	// Program says the player is a program (docs/engine.md); absent for a person.
	Program bool `json:"program,omitempty"`
}

// toPlayerView is the view of p.
func toPlayerView(p players.Player) PlayerView {
	return PlayerView{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt, Program: p.Program}
}

// toPlayerProfile is the public profile of prof.
func toPlayerProfile(prof players.Profile) PlayerProfile {
	return PlayerProfile{ID: prof.ID, Name: prof.Name, CreatedAt: prof.CreatedAt, Program: prof.Program}
}
