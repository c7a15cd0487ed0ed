package sqlrow

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain/app/puzzles"
	"github.com/allfives/allfives/domain/openskill"
)

// PuzzleRow is a row of puzzles (migrations/*/00017_puzzles.sql).
type PuzzleRow struct {
	ID        string  `gorm:"column:id;primaryKey"`
	MatchID   string  `gorm:"column:match_id"`
	Step      int     `gorm:"column:step"`
	Seat      int     `gorm:"column:seat"`
	PlayerID  string  `gorm:"column:player_id"`
	Position  string  `gorm:"column:position"`
	Answer    string  `gorm:"column:answer"`
	Mu        float64 `gorm:"column:mu"`
	Sigma     float64 `gorm:"column:sigma"`
	Attempts  int     `gorm:"column:attempts"`
	Solved    int     `gorm:"column:solved"`
	CreatedAt int64   `gorm:"column:created_at"`
}

// TableName tells GORM the table, which migrations/ names.
func (PuzzleRow) TableName() string { return "puzzles" }

// puzzleAnswer is the answer column: what the review said of the decision.
type puzzleAnswer struct {
	Options []puzzles.Option `json:"options"`
	Played  puzzles.Move     `json:"played"`
	Best    puzzles.Move     `json:"best"`
	Loss    float64          `json:"loss"`
}

// PuzzleRowOf is p as a row.
func PuzzleRowOf(p puzzles.Puzzle) (PuzzleRow, error) {
	pos, err := json.Marshal(p.Position)
	if err != nil {
		return PuzzleRow{}, err
	}
	ans, err := json.Marshal(puzzleAnswer{Options: p.Options, Played: p.Played, Best: p.Best, Loss: p.Loss})
	if err != nil {
		return PuzzleRow{}, err
	}
	return PuzzleRow{
		ID: p.ID, MatchID: p.Match, Step: p.Step, Seat: p.Seat, PlayerID: p.Player, Position: string(pos),
		Answer: string(ans), Mu: p.Rating.Mu, Sigma: p.Rating.Sigma, Attempts: p.Attempts, Solved: p.Solved,
		CreatedAt: p.CreatedAt.UnixNano(),
	}, nil
}

// Puzzle is the puzzle of a row, with its match's players.
func (r PuzzleRow) Puzzle(players []string) (puzzles.Puzzle, error) {
	p := puzzles.Puzzle{
		ID: r.ID, Match: r.MatchID, Step: r.Step, Seat: r.Seat, Player: r.PlayerID, Players: players,
		Rating: openskill.Rating{Mu: r.Mu, Sigma: r.Sigma}, Attempts: r.Attempts, Solved: r.Solved,
		CreatedAt: time.Unix(0, r.CreatedAt).UTC(),
	}
	var a puzzleAnswer
	if err := json.Unmarshal([]byte(r.Position), &p.Position); err != nil {
		return p, fmt.Errorf("puzzle %s: position: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(r.Answer), &a); err != nil {
		return p, fmt.Errorf("puzzle %s: answer: %w", r.ID, err)
	}
	p.Options, p.Played, p.Best, p.Loss = a.Options, a.Played, a.Best, a.Loss
	return p, nil
}

const puzzleColumns = "id, match_id, step, seat, player_id, position, answer, mu, sigma, attempts, solved, created_at"

// PutPuzzles inserts ps and their players; a puzzle of a (match, step) stored already is
// left as it is, with its players.
func PutPuzzles(db *gorm.DB, ps []puzzles.Puzzle) error {
	for _, p := range ps {
		r, err := PuzzleRowOf(p)
		if err != nil {
			return err
		}
		res := db.Exec("INSERT INTO puzzles ("+puzzleColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, step) DO NOTHING",
			r.ID, r.MatchID, r.Step, r.Seat, r.PlayerID, r.Position, r.Answer, r.Mu, r.Sigma, r.Attempts, r.Solved, r.CreatedAt)
		if res.Error != nil || res.RowsAffected == 0 {
			if res.Error != nil {
				return res.Error
			}
			continue
		}
		for _, pl := range p.Players {
			if err := db.Exec("INSERT INTO puzzle_players (puzzle_id, player_id) VALUES (?, ?) ON CONFLICT DO NOTHING", p.ID, pl).Error; err != nil {
				return err
			}
		}
	}
	return nil
}

// Puzzles reads the puzzles a WHERE clause selects (with its ORDER BY and LIMIT), each with
// its match's players.
func Puzzles(ctx context.Context, db *gorm.DB, where string, args ...any) ([]puzzles.Puzzle, error) {
	var rows []PuzzleRow
	if err := db.WithContext(ctx).Raw("SELECT "+puzzleColumns+" FROM puzzles WHERE "+where, args...).Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]puzzles.Puzzle, 0, len(rows))
	for _, r := range rows {
		var players []string
		if err := db.WithContext(ctx).Raw("SELECT player_id FROM puzzle_players WHERE puzzle_id = ? ORDER BY player_id", r.ID).Scan(&players).Error; err != nil {
			return nil, err
		}
		p, err := r.Puzzle(players)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// notMine keeps the puzzles player may be offered: not from its matches, not attempted.
const notMine = " AND NOT EXISTS (SELECT 1 FROM puzzle_players pp WHERE pp.puzzle_id = puzzles.id AND pp.player_id = ?)" +
	" AND NOT EXISTS (SELECT 1 FROM puzzle_attempts pa WHERE pa.puzzle_id = puzzles.id AND pa.player_id = ?)"

// NextPuzzle reads the puzzle nearest (mu, from) in the order of (mu, id) that player may be
// offered, without its players: the nearest at or above and the nearest below, each one walk of
// the index puzzles_mu, in one query, and the closer in mu of the two. from, a random id, picks
// among puzzles of one mu (every new puzzle's) at random rather than always the first.
func NextPuzzle(ctx context.Context, db *gorm.DB, player string, mu float64, from string) (puzzles.Puzzle, bool, error) {
	filter, args := "", []any{mu, from}
	if player != "" {
		filter, args = notMine, []any{mu, from, player, player}
	}
	q := "SELECT * FROM (SELECT " + puzzleColumns + " FROM puzzles WHERE (mu, id) >= (?, ?)" + filter + " ORDER BY mu, id LIMIT 1) up" +
		" UNION ALL SELECT * FROM (SELECT " + puzzleColumns + " FROM puzzles WHERE (mu, id) < (?, ?)" + filter + " ORDER BY mu DESC, id DESC LIMIT 1) down"
	var rows []PuzzleRow
	if err := db.WithContext(ctx).Raw(q, append(args, args...)...).Scan(&rows).Error; err != nil || len(rows) == 0 {
		return puzzles.Puzzle{}, false, err
	}
	best := rows[0]
	for _, r := range rows[1:] {
		if math.Abs(r.Mu-mu) < math.Abs(best.Mu-mu) {
			best = r
		}
	}
	p, err := best.Puzzle(nil)
	return p, err == nil, err
}

// PlayerPuzzles reads up to limit puzzles of player's own decisions, newest first.
func PlayerPuzzles(ctx context.Context, db *gorm.DB, player string, limit int) ([]puzzles.Puzzle, error) {
	return Puzzles(ctx, db, "player_id = ? AND player_id <> '' ORDER BY created_at DESC, id DESC LIMIT ?", player, limit)
}

// Solver reads player's puzzle rating.
func Solver(ctx context.Context, db *gorm.DB, player string) (puzzles.Solver, bool, error) {
	var rows []struct {
		Mu, Sigma        float64
		Attempts, Solved int
	}
	if err := db.WithContext(ctx).Raw("SELECT mu, sigma, attempts, solved FROM puzzle_solvers WHERE player_id = ?", player).Scan(&rows).Error; err != nil || len(rows) == 0 {
		return puzzles.Solver{}, false, err
	}
	r := rows[0]
	return puzzles.Solver{Player: player, Rating: openskill.Rating{Mu: r.Mu, Sigma: r.Sigma}, Attempts: r.Attempts, Solved: r.Solved}, true, nil
}

// RecordAttempt records a's first attempt in tx and rates it (puzzles.Store.RecordAttempt).
// lock is appended to the reads of the two rows it rates: " FOR UPDATE" on PostgreSQL, where
// two solvers of one puzzle rate at once; "" on SQLite, whose writer is one at a time. The
// puzzle's row is locked first, then the solver's, always in that order.
func RecordAttempt(ctx context.Context, tx *gorm.DB, a puzzles.Attempt, start openskill.Rating, rate puzzles.Rate, lock string) (puzzles.Solver, bool, error) {
	res := tx.Exec("INSERT INTO puzzle_attempts (puzzle_id, player_id, correct, at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
		a.Puzzle, a.Player, a.Correct, a.At.UnixNano())
	if res.Error != nil {
		return puzzles.Solver{}, false, res.Error
	}
	if res.RowsAffected == 0 {
		sv, _, err := Solver(ctx, tx, a.Player)
		return sv, false, err
	}
	var pz []struct{ Mu, Sigma float64 }
	if err := tx.Raw("SELECT mu, sigma FROM puzzles WHERE id = ?"+lock, a.Puzzle).Scan(&pz).Error; err != nil {
		return puzzles.Solver{}, false, err
	}
	if len(pz) == 0 {
		return puzzles.Solver{}, false, puzzles.ErrPuzzleNotFound
	}
	if err := tx.Exec("INSERT INTO puzzle_solvers (player_id, mu, sigma) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", a.Player, start.Mu, start.Sigma).Error; err != nil {
		return puzzles.Solver{}, false, err
	}
	var sv []struct {
		Mu, Sigma        float64
		Attempts, Solved int
	}
	if err := tx.Raw("SELECT mu, sigma, attempts, solved FROM puzzle_solvers WHERE player_id = ?"+lock, a.Player).Scan(&sv).Error; err != nil {
		return puzzles.Solver{}, false, err
	}
	solver, puzzle, err := rate(openskill.Rating{Mu: sv[0].Mu, Sigma: sv[0].Sigma}, openskill.Rating{Mu: pz[0].Mu, Sigma: pz[0].Sigma}, a.Correct)
	if err != nil {
		return puzzles.Solver{}, false, err
	}
	solved := 0
	if a.Correct {
		solved = 1
	}
	if err := tx.Exec("UPDATE puzzles SET mu = ?, sigma = ?, attempts = attempts + 1, solved = solved + ? WHERE id = ?", puzzle.Mu, puzzle.Sigma, solved, a.Puzzle).Error; err != nil {
		return puzzles.Solver{}, false, err
	}
	if err := tx.Exec("UPDATE puzzle_solvers SET mu = ?, sigma = ?, attempts = attempts + 1, solved = solved + ? WHERE player_id = ?", solver.Mu, solver.Sigma, solved, a.Player).Error; err != nil {
		return puzzles.Solver{}, false, err
	}
	return puzzles.Solver{Player: a.Player, Rating: solver, Attempts: sv[0].Attempts + 1, Solved: sv[0].Solved + solved}, true, nil
}
