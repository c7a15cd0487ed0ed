package sqlrow

// The SQL of the ratings (migrations/*/00008_ratings.sql, and the standing of
// 00012_standing_and_skeletons.sql), shared by repository/sqlite and repository/postgres
// through GORM, which writes each dialect's placeholders. Where the dialects differ (a boolean
// literal, reading match.created's JSON) the Dialect says how; the transaction and the
// projection's lock are each store's own.

import (
	"context"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/openskill"
)

// Dialect is what differs between the stores' SQL.
type Dialect struct {
	// True is a true boolean as a literal, "1" or "TRUE": the leaderboard's partial index is
	// on ranked being true, which a query names literally for the planner to use the index.
	// False is a false one.
	True, False string
	// Rated is a condition on the alias c, a match.created row of events, that holds when
	// its JSON says "rated": true.
	Rated string
	// Commitment reads the commitment of the alias c, a match.created row of events.
	Commitment string
}

// ChangeRow is a row of rating_changes.
type ChangeRow struct {
	MatchID     string  `gorm:"column:match_id;primaryKey"`
	PlayerID    string  `gorm:"column:player_id;primaryKey"`
	Format      string  `gorm:"column:format"`
	EndedAt     string  `gorm:"column:ended_at"`
	Seat        int     `gorm:"column:seat"`
	Won         bool    `gorm:"column:won"`
	MuBefore    float64 `gorm:"column:mu_before"`
	SigmaBefore float64 `gorm:"column:sigma_before"`
	MuAfter     float64 `gorm:"column:mu_after"`
	SigmaAfter  float64 `gorm:"column:sigma_after"`
	// AgainstEstablished (migration 00012): the match counted toward the player's standing.
	AgainstEstablished bool `gorm:"column:against_established"`
}

// TableName tells GORM the table.
func (ChangeRow) TableName() string { return "rating_changes" }

// StandingRow is a row of ratings.
type StandingRow struct {
	PlayerID string  `gorm:"column:player_id;primaryKey"`
	Format   string  `gorm:"column:format;primaryKey"`
	Mu       float64 `gorm:"column:mu"`
	Sigma    float64 `gorm:"column:sigma"`
	Rating   float64 `gorm:"column:rating"`
	Matches  int     `gorm:"column:matches"`
	Wins     int     `gorm:"column:wins"`
	Ranked   bool    `gorm:"column:ranked"`
	// EstablishedMatches (migration 00012): the matches against established opponents.
	EstablishedMatches int `gorm:"column:established_matches"`
}

// TableName tells GORM the table.
func (StandingRow) TableName() string { return "ratings" }

// QueueRow is a row of rating_queue.
type QueueRow struct {
	MatchID string `gorm:"column:match_id;primaryKey"`
	EndedAt string `gorm:"column:ended_at"`
	EndSeq  int    `gorm:"column:end_seq"`
	// Commitment (migration 00016) is the match's commitment, from its match.created: a
	// match of a duplicate round waits while its round's seal holds it.
	Commitment *string `gorm:"column:commitment"`
}

// TableName tells GORM the table.
func (QueueRow) TableName() string { return "rating_queue" }

func changeRowOf(c ratings.Change) ChangeRow {
	return ChangeRow{
		MatchID: c.MatchID, PlayerID: c.Player, Format: string(c.Format), EndedAt: FormatTime(c.EndedAt),
		Seat: c.Seat, Won: c.Won, MuBefore: c.Before.Mu, SigmaBefore: c.Before.Sigma, MuAfter: c.After.Mu, SigmaAfter: c.After.Sigma,
		AgainstEstablished: c.AgainstEstablished,
	}
}

func (r ChangeRow) change() (ratings.Change, error) {
	at, err := ParseTime(r.EndedAt)
	if err != nil {
		return ratings.Change{}, err
	}
	return ratings.Change{
		Key: ratings.Key{EndedAt: at, MatchID: r.MatchID}, Player: r.PlayerID, Format: ratings.Format(r.Format),
		Seat: r.Seat, Won: r.Won,
		Before: openskill.Rating{Mu: r.MuBefore, Sigma: r.SigmaBefore}, After: openskill.Rating{Mu: r.MuAfter, Sigma: r.SigmaAfter},
		AgainstEstablished: r.AgainstEstablished,
	}, nil
}

func standingRowOf(s ratings.Standing) StandingRow {
	return StandingRow{
		PlayerID: s.Player, Format: string(s.Format), Mu: s.Rating.Mu, Sigma: s.Rating.Sigma, Rating: s.Ordinal(),
		Matches: s.Matches, Wins: s.Wins, Ranked: !s.Provisional(), EstablishedMatches: s.Established,
	}
}

func (r StandingRow) standing() ratings.Standing {
	return ratings.Standing{
		Player: r.PlayerID, Format: ratings.Format(r.Format), Rating: openskill.Rating{Mu: r.Mu, Sigma: r.Sigma},
		Matches: r.Matches, Wins: r.Wins, Established: r.EstablishedMatches,
	}
}

func (r QueueRow) queued() (ratings.Queued, error) {
	at, err := ParseTime(r.EndedAt)
	if err != nil {
		return ratings.Queued{}, err
	}
	return ratings.Queued{Key: ratings.Key{EndedAt: at, MatchID: r.MatchID}, EndSeq: r.EndSeq}, nil
}

func changes(rows []ChangeRow) ([]ratings.Change, error) {
	out := make([]ratings.Change, len(rows))
	for i, r := range rows {
		c, err := r.change()
		if err != nil {
			return nil, fmt.Errorf("rating change of %s in %s: %w", r.PlayerID, r.MatchID, err)
		}
		out[i] = c
	}
	return out, nil
}

func queued(rows []QueueRow) ([]ratings.Queued, error) {
	out := make([]ratings.Queued, len(rows))
	for i, r := range rows {
		q, err := r.queued()
		if err != nil {
			return nil, fmt.Errorf("rating queue row of %s: %w", r.MatchID, err)
		}
		out[i] = q
	}
	return out, nil
}

// batchRows is how many rows one INSERT writes.
const batchRows = 200

// upsert writes standings, replacing the rows of the same (player, format).
func upsert(db *gorm.DB, standings []ratings.Standing) error {
	if len(standings) == 0 {
		return nil
	}
	rows := make([]StandingRow, len(standings))
	for i, s := range standings {
		rows[i] = standingRowOf(s)
	}
	return db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "player_id"}, {Name: "format"}},
		DoUpdates: clause.AssignmentColumns([]string{"mu", "sigma", "rating", "matches", "wins", "ranked", "established_matches"}),
	}).CreateInBatches(rows, batchRows).Error
}

func insertChanges(db *gorm.DB, cs []ratings.Change) error {
	if len(cs) == 0 {
		return nil
	}
	rows := make([]ChangeRow, len(cs))
	for i, c := range cs {
		rows[i] = changeRowOf(c)
	}
	return db.CreateInBatches(rows, batchRows).Error
}

// Tx is the projection's transaction over a GORM transaction.
type Tx struct {
	db *gorm.DB
	d  Dialect
}

var _ ratings.Tx = Tx{}

// NewTx is tx as the projection's transaction.
func NewTx(tx *gorm.DB, d Dialect) Tx { return Tx{db: tx, d: d} }

// Pending lists the first queued matches that no running duplicate round holds, in key
// order, by the index rating_queue_order: a match of a duplicate round waits while its
// round's seal is not revealed (docs/ratings.md, "The projection"). Its ended_at is already
// its key, the later of its end and its round's: the reveal moves the round's queued rows up
// to its time, and a row queued after it is queued at that time (migration 00016). The seal is
// read in the projection's own statement, so a round that ends while the projection runs
// shows its matches whole, or not at all: an earlier key than the last rated then rewinds the
// table, as a late end does.
func (t Tx) Pending(ctx context.Context, limit int) ([]ratings.Queued, error) {
	var rows []QueueRow
	err := t.db.WithContext(ctx).Raw(`SELECT q.match_id, q.ended_at, q.end_seq FROM rating_queue q
		WHERE NOT EXISTS (SELECT 1 FROM tournament_seals s WHERE s.commitment = q.commitment AND s.revealed = `+t.d.False+`)
		ORDER BY q.ended_at, q.match_id LIMIT ?`, limit).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	return queued(rows)
}

// Last is the key of the last match rated: the last of rating_changes' order.
func (t Tx) Last(ctx context.Context) (ratings.Key, bool, error) {
	var rows []ChangeRow
	if err := t.db.WithContext(ctx).Select("match_id, ended_at").Order("ended_at DESC, match_id DESC").Limit(1).Find(&rows).Error; err != nil || len(rows) == 0 {
		return ratings.Key{}, false, err
	}
	at, err := ParseTime(rows[0].EndedAt)
	return ratings.Key{EndedAt: at, MatchID: rows[0].MatchID}, err == nil, err
}

// Standings returns the standings of players in format.
func (t Tx) Standings(ctx context.Context, format ratings.Format, players []string) (map[string]ratings.Standing, error) {
	var rows []StandingRow
	if err := t.db.WithContext(ctx).Where("format = ? AND player_id IN ?", string(format), players).Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make(map[string]ratings.Standing, len(rows))
	for _, r := range rows {
		out[r.PlayerID] = r.standing()
	}
	return out, nil
}

// after is the condition "rated after k" on rating_changes' (ended_at, match_id).
func after(k ratings.Key) (string, []any) {
	return "(ended_at, match_id) > (?, ?)", []any{FormatTime(k.EndedAt), k.MatchID}
}

// ChangesAfter lists the changes of the matches rated after k, latest first.
func (t Tx) ChangesAfter(ctx context.Context, k ratings.Key) ([]ratings.Change, error) {
	cond, args := after(k)
	var rows []ChangeRow
	if err := t.db.WithContext(ctx).Where(cond, args...).Order("ended_at DESC, match_id DESC, player_id DESC").Find(&rows).Error; err != nil {
		return nil, err
	}
	return changes(rows)
}

// Rewind queues the matches rated after k again and takes back their changes and standings.
func (t Tx) Rewind(ctx context.Context, k ratings.Key, restore, drop []ratings.Standing) error {
	db := t.db.WithContext(ctx)
	at := FormatTime(k.EndedAt)
	if err := db.Exec(`INSERT INTO rating_queue (match_id, ended_at, end_seq)
		SELECT DISTINCT c.match_id, c.ended_at, m.version FROM rating_changes c JOIN matches m ON m.id = c.match_id
		WHERE (c.ended_at, c.match_id) > (?, ?)`, at, k.MatchID).Error; err != nil {
		return err
	}
	if err := db.Exec(`DELETE FROM rating_changes WHERE (ended_at, match_id) > (?, ?)`, at, k.MatchID).Error; err != nil {
		return err
	}
	for _, s := range drop {
		if err := db.Exec(`DELETE FROM ratings WHERE player_id = ? AND format = ?`, s.Player, string(s.Format)).Error; err != nil {
			return err
		}
	}
	return upsert(db, restore)
}

// Record stores a batch of matches taken off the queue: their changes, the standings they
// leave, and their queue rows removed.
func (t Tx) Record(ctx context.Context, done []ratings.Queued, cs []ratings.Change, standings []ratings.Standing) error {
	db := t.db.WithContext(ctx)
	if err := insertChanges(db, cs); err != nil {
		return err
	}
	if err := upsert(db, standings); err != nil {
		return err
	}
	return dequeue(db, done)
}

// dequeue removes the queue rows of done.
func dequeue(db *gorm.DB, done []ratings.Queued) error {
	for start := 0; start < len(done); start += batchRows {
		ids := make([]string, 0, batchRows)
		for _, q := range done[start:min(start+batchRows, len(done))] {
			ids = append(ids, q.MatchID)
		}
		if err := db.Exec(`DELETE FROM rating_queue WHERE match_id IN ?`, ids).Error; err != nil {
			return err
		}
	}
	return nil
}

// Replace puts a rebuild in place of every rating, in tx.
func Replace(tx *gorm.DB, done []ratings.Queued, cs []ratings.Change, standings []ratings.Standing) error {
	if err := tx.Exec(`DELETE FROM rating_changes`).Error; err != nil {
		return err
	}
	if err := tx.Exec(`DELETE FROM ratings`).Error; err != nil {
		return err
	}
	if err := insertChanges(tx, cs); err != nil {
		return err
	}
	if err := upsert(tx, standings); err != nil {
		return err
	}
	return dequeue(tx, done)
}

// RatedEnds lists, from the logs alone, every match.ended of a match created rated, by key:
// a match of a duplicate round takes the later of its end and its round's end, read from its
// tournament's log, and one whose round still runs is left out (ratings_sealed.go).
func RatedEnds(db *gorm.DB, d Dialect) ([]ratings.Queued, error) {
	var rows []QueueRow
	err := db.Raw(`SELECT e.match_id AS match_id, e.at AS ended_at, e.seq AS end_seq, ` + d.Commitment + ` AS commitment
		FROM events e JOIN events c ON c.match_id = e.match_id AND c.seq = 1
		WHERE e.type = 'match.ended' AND ` + d.Rated + `
		ORDER BY e.at, e.match_id`).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	reveals, err := roundReveals(db)
	if err != nil {
		return nil, err
	}
	return sealedKeys(rows, reveals)
}

// AllStandings is every row of ratings, by player and format.
func AllStandings(db *gorm.DB) ([]ratings.Standing, error) {
	var rows []StandingRow
	if err := db.Order("player_id, format").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]ratings.Standing, len(rows))
	for i, r := range rows {
		out[i] = r.standing()
	}
	return out, nil
}

// AllChanges is every row of rating_changes, by key and player.
func AllChanges(db *gorm.DB) ([]ratings.Change, error) {
	var rows []ChangeRow
	if err := db.Order("ended_at, match_id, player_id").Find(&rows).Error; err != nil {
		return nil, err
	}
	return changes(rows)
}

// PlayerStandings is a player's standing per format.
func PlayerStandings(db *gorm.DB, player string) ([]ratings.Standing, error) {
	var rows []StandingRow
	if err := db.Where("player_id = ?", player).Order("format").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]ratings.Standing, len(rows))
	for i, r := range rows {
		out[i] = r.standing()
	}
	return out, nil
}

// PlayerChanges is a page of a player's changes, newest first, by the index
// rating_changes_player.
func PlayerChanges(db *gorm.DB, player string, format ratings.Format, before *ratings.Key, limit int) ([]ratings.Change, error) {
	q := db.Where("player_id = ?", player)
	if format != "" {
		q = q.Where("format = ?", string(format))
	}
	if before != nil {
		q = q.Where("(ended_at, match_id) < (?, ?)", FormatTime(before.EndedAt), before.MatchID)
	}
	var rows []ChangeRow
	if err := q.Order("ended_at DESC, match_id DESC").Limit(limit).Find(&rows).Error; err != nil {
		return nil, err
	}
	return changes(rows)
}

// boardRow is a leaderboard row as read.
type boardRow struct {
	StandingRow
	Name    string `gorm:"column:name"`
	Program bool   `gorm:"column:program"`
}

// Leaderboard is a page of format's ranked standings, highest (rating, player) first, by a
// backward walk of the partial index ratings_leaderboard: no sort, and a cursor deep in the
// board seeks to its place rather than counting the rows before it.
func Leaderboard(db *gorm.DB, d Dialect, format ratings.Format, who ratings.Players, from *ratings.BoardPosition, limit int) ([]ratings.BoardRow, error) {
	q := `SELECT r.player_id, r.format, r.mu, r.sigma, r.rating, r.matches, r.wins, r.ranked, r.established_matches, COALESCE(p.name, r.player_id) AS name,
		COALESCE(p.program, ` + d.False + `) AS program
		FROM ratings r LEFT JOIN players p ON p.id = r.player_id
		WHERE r.format = ? AND r.ranked = ` + d.True
	args := []any{string(format)}
	switch who { // migration 00018: the bots' players are programs
	case ratings.Humans:
		q += ` AND COALESCE(p.program, ` + d.False + `) = ` + d.False
	case ratings.Programs:
		q += ` AND p.program = ` + d.True
	}
	if from != nil {
		q += ` AND (r.rating, r.player_id) < (?, ?)`
		args = append(args, from.Rating, from.Player)
	}
	q += ` ORDER BY r.rating DESC, r.player_id DESC LIMIT ?`
	args = append(args, limit)
	var rows []boardRow
	if err := db.Raw(q, args...).Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]ratings.BoardRow, len(rows))
	for i, r := range rows {
		out[i] = ratings.BoardRow{Standing: r.standing(), Name: r.Name, Program: r.Program}
	}
	return out, nil
}

// MatchChanges is one match's changes, in seat order.
func MatchChanges(db *gorm.DB, id string) ([]ratings.Change, error) {
	var rows []ChangeRow
	if err := db.Where("match_id = ?", id).Order("seat").Find(&rows).Error; err != nil {
		return nil, err
	}
	return changes(rows)
}

// OpeningAndEnd reads match id's first head events and its event endSeq, in seq order, in
// one query on the events' primary key.
func OpeningAndEnd(db *gorm.DB, id string, head, endSeq int) ([]domain.Event, error) {
	var rows []EventRow
	if err := db.Select("match_id", "seq", "type", "data", "at").
		Where("match_id = ? AND (seq <= ? OR seq = ?)", id, head, endSeq).Order("seq").Find(&rows).Error; err != nil {
		return nil, err
	}
	return DecodeEvents(rows)
}
