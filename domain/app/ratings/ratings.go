package ratings

import (
	"context"
	"strings"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/openskill"
)

// Format is a kind of table, rated apart from the others (docs/ratings.md, "Formats").
type Format string

// The formats.
const (
	Format2p  Format = "2p"
	Format3p  Format = "3p"
	Format4p  Format = "4p"
	Format2v2 Format = "2v2"
)

// Formats lists every format, in the order the docs and the API list them.
var Formats = []Format{Format2p, Format3p, Format4p, Format2v2}

// FormatOf is the format of a table of players seats, in partnerships or not.
func FormatOf(players int, partnerships bool) Format {
	switch {
	case partnerships:
		return Format2v2
	case players == 2:
		return Format2p
	case players == 3:
		return Format3p
	}
	return Format4p
}

// ParseFormat reads a format's name; ok is false for any other text.
func ParseFormat(s string) (Format, bool) {
	for _, f := range Formats {
		if string(f) == s {
			return f, true
		}
	}
	return "", false
}

// BotPrefix starts the player id of every bot: bot-random, bot-greedy, bot-pimc, bot-expert,
// bot-level-1 to bot-level-8.
const BotPrefix = "bot-"

// IsBot says whether player id is a bot's.
func IsBot(id string) bool { return strings.HasPrefix(id, BotPrefix) }

// Key orders rated matches: by the time of their match.ended, then by id. Ratings are
// updated in this order, and the rebuild follows it too.
type Key struct {
	EndedAt time.Time
	MatchID string
}

// Compare is -1, 0 or +1 as k sorts before, with or after o.
func (k Key) Compare(o Key) int {
	if c := k.EndedAt.Compare(o.EndedAt); c != 0 {
		return c
	}
	return strings.Compare(k.MatchID, o.MatchID)
}

// Queued is a rated match that ended and waits for its rating: its key and the seq of its
// match.ended, the log's last.
type Queued struct {
	Key
	EndSeq int
}

// Standing is a player's rating in one format and what it was built from.
type Standing struct {
	Player  string
	Format  Format
	Rating  openskill.Rating
	Matches int
	Wins    int
	// Established counts the matches of Matches played against opponents who were
	// established when they met (docs/ratings.md, "Standing"; AgainstEstablished).
	Established int
}

// Ordinal is the displayed rating, mu - 3 sigma.
func (s Standing) Ordinal() float64 { return s.Rating.Ordinal() }

// Provisional says the rating is still too new to rank (docs/ratings.md, "Provisional" and
// "Standing"): the model's rule (fewer than 10 rated matches, or sigma above 6), or fewer
// than StandingMatches matches against established opponents. A player who is not
// provisional is established: on the leaderboard, and an opponent whose matches count.
func (s Standing) Provisional() bool {
	return openskill.Provisional(s.Rating, s.Matches) || s.Established < StandingMatches
}

// Change is what one rated match did to one of its players.
type Change struct {
	Key
	Player string
	Format Format
	Seat   int
	Won    bool
	Before openskill.Rating
	After  openskill.Rating
	// AgainstEstablished says the match counted toward the player's standing: every player
	// of every other side was established when it was rated (docs/ratings.md, "Standing").
	AgainstEstablished bool
}

// Tx is one transaction of the projection, holding its lock (Store.Project).
type Tx interface {
	// Pending lists up to limit queued matches, first in Key order.
	Pending(ctx context.Context, limit int) ([]Queued, error)
	// Last is the key of the last match rated (the projection's cursor); ok is false when
	// none is.
	Last(ctx context.Context) (k Key, ok bool, err error)
	// Standings returns the standings in format of those of players that have one.
	Standings(ctx context.Context, format Format, players []string) (map[string]Standing, error)
	// ChangesAfter lists every change of the matches rated after k, latest first.
	ChangesAfter(ctx context.Context, k Key) ([]Change, error)
	// Rewind takes back every match rated after k: their changes go, they are queued again,
	// restore are written as the standings now stand and drop (player and format of each)
	// are removed: players who had no match before.
	Rewind(ctx context.Context, k Key, restore, drop []Standing) error
	// Record stores a batch of matches taken off the queue: their queue rows removed (done
	// holds the unrated ones too), their changes, and the standings they leave, one per
	// player and format.
	Record(ctx context.Context, done []Queued, changes []Change, standings []Standing) error
}

// Store is the port of the ratings' durable state. repository/sqlite and
// repository/postgres implement it.
type Store interface {
	// Project runs fn in one transaction under the projection's lock, so that one instance
	// at a time rates: ran is false, and fn not run, when another instance holds it. The
	// lock ends with the transaction, and with the session if that dies first.
	Project(ctx context.Context, fn func(Tx) error) (ran bool, err error)
	// Replace puts the result of a rebuild in place of every rating, in one transaction
	// under the projection's lock (waiting for it): all standings and changes are replaced,
	// and the queue rows of the matches done are removed.
	Replace(ctx context.Context, done []Queued, changes []Change, standings []Standing) error
	// RatedEnds lists, from the logs alone, every match whose match.created says rated and
	// whose log has a match.ended, in Key order.
	RatedEnds(ctx context.Context) ([]Queued, error)
	// AllStandings and AllChanges are every row, in (player, format) and (key, player)
	// order, for comparing with a rebuild.
	AllStandings(ctx context.Context) ([]Standing, error)
	AllChanges(ctx context.Context) ([]Change, error)

	// PlayerStandings returns a player's standing in each format it played.
	PlayerStandings(ctx context.Context, player string) ([]Standing, error)
	// PlayerChanges returns up to limit of a player's changes, newest first, in format
	// (empty: every format), before the key given (nil: from the newest).
	PlayerChanges(ctx context.Context, player string, format Format, before *Key, limit int) ([]Change, error)
	// Leaderboard returns up to limit ranked standings of format with their players' names,
	// highest (rating, player) first, after the position given (nil: from the top).
	// who keeps only humans or only programs (AllPlayers: both).
	Leaderboard(ctx context.Context, format Format, who Players, after *BoardPosition, limit int) ([]BoardRow, error)
	// MatchChanges returns the changes of one match, in seat order.
	MatchChanges(ctx context.Context, id string) ([]Change, error)
}

// BoardPosition is where a leaderboard page ended: its last row's rating and player.
type BoardPosition struct {
	Rating float64
	Player string
}

// BoardRow is one ranked standing with its player's name, and whether the player is a
// program (a bot, or a player made as one: docs/engine.md).
type BoardRow struct {
	Standing
	Name    string
	Program bool
}

// Players chooses whose rows a leaderboard holds.
type Players string

// The leaderboards' choices of players: everyone, people only, programs only (bots count as
// programs).
const (
	AllPlayers Players = ""
	Humans     Players = "humans"
	Programs   Players = "programs"
)

// EndReader is a LogReader that also reads a log's first head events and its event endSeq
// in one query, which the projection prefers: the seats are settled in the first few events,
// the result is in the last.
type EndReader interface {
	OpeningAndEnd(ctx context.Context, id string, head, endSeq int) ([]domain.Event, error)
}

// LogReader reads match logs: every referee.EventStore is one.
type LogReader interface {
	// Events returns the events with seq > after in order, at most limit (0: all).
	Events(ctx context.Context, id string, after, limit int) ([]domain.Event, error)
}
