package sqlrow

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain/app/storeerr"
	"github.com/allfives/allfives/domain/app/tournaments"
	"github.com/allfives/allfives/domain/tournament"
)

// The SQL of tournaments (migrations/*/00014_tournaments.sql), the same in both dialects: the
// stores run it in their own transactions.

type tournamentRow struct {
	ID        string `gorm:"column:id"`
	Name      string `gorm:"column:name"`
	Status    string `gorm:"column:status"`
	Organiser string `gorm:"column:organiser"`
	CreatedAt int64  `gorm:"column:created_at"`
	UpdatedAt int64  `gorm:"column:updated_at"`
	StartsAt  *int64 `gorm:"column:starts_at"`
	Version   int    `gorm:"column:version"`
	HeadHash  string `gorm:"column:head_hash"`
}

type tournamentEventRow struct {
	Seq      int    `gorm:"column:seq"`
	Type     string `gorm:"column:type"`
	Data     string `gorm:"column:data"`
	At       int64  `gorm:"column:at"`
	PrevHash string `gorm:"column:prev_hash"`
	Hash     string `gorm:"column:hash"`
}

func (r tournamentRow) row() tournaments.Row {
	out := tournaments.Row{ID: r.ID, Name: r.Name, Status: tournament.Status(r.Status), Organiser: r.Organiser,
		CreatedAt: time.Unix(0, r.CreatedAt).UTC(), UpdatedAt: time.Unix(0, r.UpdatedAt).UTC(), Version: r.Version, HeadHash: r.HeadHash}
	if r.StartsAt != nil {
		t := time.Unix(0, *r.StartsAt).UTC()
		out.StartsAt = &t
	}
	return out
}

func startsAt(r tournaments.Row) *int64 {
	if r.StartsAt == nil {
		return nil
	}
	n := r.StartsAt.UnixNano()
	return &n
}

func insertLinks(tx *gorm.DB, id string, links []tournament.Link) error {
	for _, l := range links {
		if err := tx.Exec("INSERT INTO tournament_events (tournament_id, seq, type, data, at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
			id, l.Seq, string(l.Type), string(l.Data), l.At.UnixNano(), l.PrevHash, l.Hash).Error; err != nil {
			if errors.Is(err, gorm.ErrDuplicatedKey) {
				return tournaments.ErrConflict
			}
			return err
		}
	}
	return nil
}

// CreateTournament inserts a tournament's row and first links through tx.
func CreateTournament(tx *gorm.DB, r tournaments.Row, links []tournament.Link) error {
	if err := tx.Exec("INSERT INTO tournaments (id, name, status, organiser, created_at, updated_at, starts_at, version, head_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		r.ID, r.Name, string(r.Status), r.Organiser, r.CreatedAt.UnixNano(), r.UpdatedAt.UnixNano(), startsAt(r), r.Version, r.HeadHash).Error; err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return tournaments.ErrConflict
		}
		return err
	}
	return insertLinks(tx, r.ID, links)
}

// AppendTournament appends a's links through tx after checking the version and the head
// hash, and updates the row and the seals with them.
func AppendTournament(tx *gorm.DB, a tournaments.Append) error {
	var version []int
	if err := tx.Raw("SELECT version FROM tournaments WHERE id = ?", a.ID).Scan(&version).Error; err != nil {
		return err
	}
	switch {
	case len(version) == 0:
		return tournaments.ErrNotFound
	case version[0] != a.Expected:
		return tournaments.ErrConflict
	}
	if err := insertLinks(tx, a.ID, a.Links); err != nil {
		return err
	}
	// The head hash guards the chain as the version guards the seqs: an append chained after
	// any other head than the stored one is refused.
	r, prev := a.Row, ""
	if len(a.Links) > 0 {
		prev = a.Links[0].PrevHash
	}
	res := tx.Exec("UPDATE tournaments SET status = ?, updated_at = ?, starts_at = ?, version = ?, head_hash = ? WHERE id = ? AND version = ? AND head_hash = ?",
		string(r.Status), r.UpdatedAt.UnixNano(), startsAt(r), r.Version, r.HeadHash, a.ID, a.Expected, prev)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return tournaments.ErrConflict
	}
	if s := a.Seal; s != nil {
		if err := tx.Exec("INSERT INTO tournament_seals (commitment, tournament_id, round, seed) VALUES (?, ?, ?, ?)",
			s.Commitment, a.ID, s.Round, s.Seed).Error; err != nil {
			return err
		}
	}
	if a.Reveal != "" && len(a.Links) > 0 {
		// revealed_at is the time of the event that reveals the seed, which the rebuild reads
		// from the log (ratings_sealed.go): the matches of the round are rated at it, so their
		// queued rows move up to it. The seal first: on PostgreSQL its row lock orders this
		// with a match's end queueing a row of the round (migration 00016's trigger).
		at := FormatTime(a.Links[len(a.Links)-1].At)
		if err := tx.Exec("UPDATE tournament_seals SET revealed = ?, revealed_at = ? WHERE commitment = ?", true, at, a.Reveal).Error; err != nil {
			return err
		}
		if err := tx.Exec("UPDATE rating_queue SET ended_at = ? WHERE commitment = ? AND ended_at < ?", at, a.Reveal, at).Error; err != nil {
			return err
		}
	}
	return nil
}

// Tournament reads a tournament's row and log through db.
func Tournament(db *gorm.DB, id string) (tournaments.Row, []tournament.Link, error) {
	var rows []tournamentRow
	if err := db.Raw("SELECT * FROM tournaments WHERE id = ?", id).Scan(&rows).Error; err != nil {
		return tournaments.Row{}, nil, err
	}
	if len(rows) == 0 {
		return tournaments.Row{}, nil, tournaments.ErrNotFound
	}
	var evs []tournamentEventRow
	if err := db.Raw("SELECT seq, type, data, at, prev_hash, hash FROM tournament_events WHERE tournament_id = ? ORDER BY seq", id).Scan(&evs).Error; err != nil {
		return tournaments.Row{}, nil, err
	}
	links := make([]tournament.Link, len(evs))
	for i, e := range evs {
		if !json.Valid([]byte(e.Data)) {
			return tournaments.Row{}, nil, fmt.Errorf("%w: tournament %s event %d", storeerr.ErrRecordCorrupt, id, e.Seq)
		}
		links[i] = tournament.Link{Event: tournament.Event{Seq: e.Seq, Type: tournament.EventType(e.Type), At: time.Unix(0, e.At).UTC(), Data: json.RawMessage(e.Data)},
			PrevHash: e.PrevHash, Hash: e.Hash}
	}
	return rows[0].row(), links, nil
}

// Tournaments lists rows of statuses (all when none), newest first, at most limit.
func Tournaments(db *gorm.DB, statuses []tournament.Status, limit int) ([]tournaments.Row, error) {
	q := db.Table("tournaments")
	if len(statuses) > 0 {
		names := make([]string, len(statuses))
		for i, s := range statuses {
			names[i] = string(s)
		}
		q = q.Where("status IN ?", names)
	}
	var rows []tournamentRow
	if err := q.Order("created_at DESC, id DESC").Limit(limit).Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]tournaments.Row, len(rows))
	for i, r := range rows {
		out[i] = r.row()
	}
	return out, nil
}

// DueTournaments lists running tournaments and upcoming ones whose start time has come.
func DueTournaments(db *gorm.DB, now time.Time) ([]string, error) {
	var ids []string
	err := db.Raw("SELECT id FROM tournaments WHERE status = 'running' OR (status = 'upcoming' AND starts_at IS NOT NULL AND starts_at <= ?) ORDER BY id", now.UnixNano()).Scan(&ids).Error
	return ids, err
}

// Organising counts organiser's tournaments upcoming or running.
func Organising(db *gorm.DB, organiser string) (int, error) {
	var n []int
	err := db.Raw("SELECT COUNT(*) FROM tournaments WHERE organiser = ? AND status IN ('upcoming', 'running')", organiser).Scan(&n).Error
	if err != nil || len(n) == 0 {
		return 0, err
	}
	return n[0], nil
}

// SealedCommitment says whether commitment belongs to a round not yet revealed.
func SealedCommitment(db *gorm.DB, commitment string) (bool, error) {
	var n []int
	err := db.Raw("SELECT COUNT(*) FROM tournament_seals WHERE commitment = ? AND revealed = ?", commitment, false).Scan(&n).Error
	return err == nil && len(n) > 0 && n[0] > 0, err
}

// RoundSeed reads a round's secret seed.
func RoundSeed(db *gorm.DB, id string, round int) ([]byte, error) {
	var seeds [][]byte
	if err := db.Raw("SELECT seed FROM tournament_seals WHERE tournament_id = ? AND round = ?", id, round).Scan(&seeds).Error; err != nil {
		return nil, err
	}
	if len(seeds) == 0 {
		return nil, tournaments.ErrNotFound
	}
	return seeds[0], nil
}
