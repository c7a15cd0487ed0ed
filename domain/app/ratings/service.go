package ratings

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/allfives/allfives/domain"
)

// Service answers the ratings' reads: a player's ratings and history, the leaderboards, and
// a match's changes. It keeps nothing in memory.
type Service struct {
	store Store
	sign  signer // cursor.go
}

// NewService returns the reads over store.
func NewService(store Store) *Service { return &Service{store: store} }

// PlayerRatings is a player's standing per format, and a page of its changes, newest first.
type PlayerRatings struct {
	Standings []Standing
	History   []Change
	// NextCursor fetches the next page of the history; empty on the last page.
	NextCursor string
}

// HistoryQuery pages a player's changes: Format "" is every format; Cursor "" the newest.
type HistoryQuery struct {
	Format Format
	Limit  int
	Cursor string
}

// Player returns player's standings and a page of its history.
func (s *Service) Player(ctx context.Context, player string, q HistoryQuery) (PlayerRatings, error) {
	var before *Key
	if q.Cursor != "" {
		raw, err := s.unseal(ctx, historyScope(player), q.Cursor)
		if err != nil {
			return PlayerRatings{}, err
		}
		k, err := decodeHistoryCursor(raw)
		if err != nil {
			return PlayerRatings{}, err
		}
		before = &k
	}
	standings, err := s.store.PlayerStandings(ctx, player)
	if err != nil {
		return PlayerRatings{}, err
	}
	changes, err := s.store.PlayerChanges(ctx, player, q.Format, before, q.Limit+1)
	if err != nil {
		return PlayerRatings{}, err
	}
	out := PlayerRatings{Standings: standings, History: changes}
	if len(changes) > q.Limit {
		out.History = changes[:q.Limit]
		if out.NextCursor, err = s.seal(ctx, historyScope(player), encodeHistoryCursor(out.History[q.Limit-1].Key)); err != nil {
			return PlayerRatings{}, err
		}
	}
	return out, nil
}

// MatchChanges returns the changes of match id, in seat order: none until it is rated.
func (s *Service) MatchChanges(ctx context.Context, id string) ([]Change, error) {
	return s.store.MatchChanges(ctx, id)
}

// Ranked is one row of a leaderboard: its rank (equal ratings share one, the next rank
// skipping as many: 1, 2, 2, 4), its standing and its player's name.
type Ranked struct {
	Rank int
	BoardRow
}

// Board is one page of a leaderboard.
type Board struct {
	Rows []Ranked
	// NextCursor fetches the next page; empty on the last page.
	NextCursor string
}

// boardCursor is where a page ended: the last row's position (1 for the top) and rank, and
// its rating and player, from which the next page goes on.
type boardCursor struct {
	pos, rank int
	at        BoardPosition
}

// Leaderboard returns a page of format's leaderboard: ranked standings only (no
// provisional one), highest rating first, equal ratings by player id (highest first).
func (s *Service) Leaderboard(ctx context.Context, format Format, who Players, cursor string, limit int) (Board, error) {
	var cur boardCursor
	var after *BoardPosition
	scope := boardScope(format) + string(who) // a cursor of one board is refused by another
	if cursor != "" {
		raw, err := s.unseal(ctx, scope, cursor)
		if err != nil {
			return Board{}, err
		}
		c, err := decodeBoardCursor(raw)
		if err != nil {
			return Board{}, err
		}
		cur, after = c, &c.at
	}
	rows, err := s.store.Leaderboard(ctx, format, who, after, limit+1)
	if err != nil {
		return Board{}, err
	}
	more := len(rows) > limit
	if more {
		rows = rows[:limit]
	}
	out := Board{Rows: make([]Ranked, len(rows))}
	for i, r := range rows {
		pos := cur.pos + 1
		rank := pos
		if cur.pos > 0 && r.Ordinal() == cur.at.Rating {
			rank = cur.rank
		}
		cur = boardCursor{pos: pos, rank: rank, at: BoardPosition{Rating: r.Ordinal(), Player: r.Player}}
		out.Rows[i] = Ranked{Rank: rank, BoardRow: r}
	}
	if more {
		var err error
		if out.NextCursor, err = s.seal(ctx, scope, encodeBoardCursor(cur)); err != nil {
			return Board{}, err
		}
	}
	return out, nil
}

// A cursor is opaque to clients: base64url of fields joined by '|' (player ids hold no '|'),
// then signed (cursor.go).

func encodeBoardCursor(c boardCursor) string {
	raw := fmt.Sprintf("b1|%d|%d|%x|%s", c.pos, c.rank, math.Float64bits(c.at.Rating), c.at.Player)
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// maxCursorPos bounds a board cursor's position, so that no crafted one makes the ranks after
// it overflow: no board has a billion players.
const maxCursorPos = 1 << 30

// isID says whether a cursor's id could be an id this server gave: 1 to 64 bytes of UTF-8
// without a NUL. Anything else is no cursor of ours, and some stores refuse such bytes.
func isID(s string) bool {
	return s != "" && len(s) <= 64 && utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

var errCursor = domain.Invalidf("cursor is not a next_cursor this server gave: leave it out for the first page")

func decodeBoardCursor(s string) (boardCursor, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return boardCursor{}, errCursor
	}
	f := strings.SplitN(string(raw), "|", 5)
	if len(f) != 5 || f[0] != "b1" || !isID(f[4]) {
		return boardCursor{}, errCursor
	}
	pos, err1 := strconv.Atoi(f[1])
	rank, err2 := strconv.Atoi(f[2])
	bits, err3 := strconv.ParseUint(f[3], 16, 64)
	r := math.Float64frombits(bits)
	if err1 != nil || err2 != nil || err3 != nil || pos < 1 || pos > maxCursorPos || rank < 1 || rank > pos || math.IsNaN(r) || math.IsInf(r, 0) {
		return boardCursor{}, errCursor
	}
	return boardCursor{pos: pos, rank: rank, at: BoardPosition{Rating: r, Player: f[4]}}, nil
}

func encodeHistoryCursor(k Key) string {
	raw := "h1|" + k.EndedAt.UTC().Format(time.RFC3339Nano) + "|" + k.MatchID
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func decodeHistoryCursor(s string) (Key, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return Key{}, errCursor
	}
	f := strings.SplitN(string(raw), "|", 3)
	if len(f) != 3 || f[0] != "h1" || !isID(f[2]) {
		return Key{}, errCursor
	}
	at, err := time.Parse(time.RFC3339Nano, f[1])
	if err != nil {
		return Key{}, errCursor
	}
	return Key{EndedAt: at.UTC(), MatchID: f[2]}, nil
}
