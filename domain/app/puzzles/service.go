// Package puzzles is the application service of puzzles (docs/puzzles.md): it makes puzzles
// of a reviewed match's clearest mistakes when its review is stored (the rule is
// domain/analysis's PuzzleRule), offers them one at a time near a solver's puzzle rating,
// answers attempts with the review's own values, and rates a player's first attempt at a
// puzzle with the project's rating model, apart from the ratings of play.
package puzzles

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"math"
	mrand "math/rand/v2"
	"slices"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/openskill"
)

// Sealer says whether a match is sealed: of a duplicate round still being played. A sealed
// match's review is refused until its round ends, so its puzzles wait for it too; the
// service asks again before it makes any (docs/tournaments.md).
type Sealer interface {
	Sealed(ctx context.Context, id string) (bool, error)
}

// Config wires a Service. Zero fields take the defaults.
type Config struct {
	Store  Store  // required
	Sealer Sealer // the referee; nil when no match is ever sealed
	// Rule makes puzzles of decisions; the zero value is analysis.DefaultPuzzleRule.
	Rule   analysis.PuzzleRule
	Model  openskill.Model  // the zero value is openskill.Default()
	Clock  func() time.Time // default the wall clock in UTC
	Random io.Reader        // puzzle ids; default crypto/rand
	Logger *slog.Logger     // default slog.Default()
}

// Service makes, offers and rates puzzles. It is safe for concurrent use.
type Service struct {
	store  Store
	sealer Sealer
	rule   analysis.PuzzleRule
	model  openskill.Model
	clock  func() time.Time
	random io.Reader
	log    *slog.Logger
}

// New returns a Service.
func New(cfg Config) *Service {
	if cfg.Store == nil {
		panic("puzzles: Config.Store is required")
	}
	if cfg.Rule == (analysis.PuzzleRule{}) {
		cfg.Rule = analysis.DefaultPuzzleRule
	}
	if cfg.Model == (openskill.Model{}) {
		cfg.Model = openskill.Default()
	}
	if cfg.Clock == nil {
		cfg.Clock = func() time.Time { return time.Now().UTC() }
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Service{store: cfg.Store, sealer: cfg.Sealer, rule: cfg.Rule, model: cfg.Model, clock: cfg.Clock, random: cfg.Random, log: cfg.Logger}
}

// Reviewed makes and stores the puzzles of match id, whose review res was just stored from
// its whole log events. It is the review service's hook (reviews.Config.Reviewed); a match
// still sealed gives none (its review cannot have been asked for; this is the second lock).
func (s *Service) Reviewed(ctx context.Context, id string, events []domain.Event, res *analysis.Result) error {
	if s.sealer != nil {
		sealed, err := s.sealer.Sealed(ctx, id)
		if err != nil || sealed {
			return err
		}
	}
	ps, err := Make(events, res, s.rule)
	if err != nil || len(ps) == 0 {
		return err
	}
	now := s.clock()
	for i := range ps {
		if ps[i].ID, err = s.newID(); err != nil {
			return err
		}
		ps[i].Match, ps[i].Rating, ps[i].CreatedAt = id, s.model.New(), now
	}
	return s.store.PutPuzzles(ctx, ps)
}

// newID is a puzzle's id: 96 random bits, so that it says nothing of its source match.
func (s *Service) newID() (string, error) {
	b := make([]byte, 12)
	if _, err := io.ReadFull(s.random, b); err != nil {
		return "", err
	}
	return "pz" + hex.EncodeToString(b), nil
}

// Next is a puzzle for player ("" for anyone without a key) near its puzzle rating: never
// one from its own matches, nor one it attempted. A little noise on the rating sought, and a
// random id to start from among puzzles of one rating, keep two asks in a row from always
// meeting the same puzzle. ErrNoPuzzle when none is left.
func (s *Service) Next(ctx context.Context, player string) (Puzzle, error) {
	mu, spread := s.model.Mu, 3.0
	if player != "" {
		sv, ok, err := s.store.Solver(ctx, player)
		if err != nil {
			return Puzzle{}, err
		}
		if ok {
			mu, spread = sv.Rating.Mu, 1.0
		}
	}
	from, err := s.newID()
	if err != nil {
		return Puzzle{}, err
	}
	p, ok, err := s.store.NextPuzzle(ctx, player, mu+spread*(2*mrand.Float64()-1), from)
	switch {
	case err != nil:
		return Puzzle{}, err
	case !ok:
		return Puzzle{}, ErrNoPuzzle
	}
	return p, nil
}

// Answer is the answer to an attempt (docs/puzzles.md, "The API").
type Answer struct {
	Correct bool
	Move    Move // the move tried, as the puzzle's legal moves write it
	Puzzle  Puzzle
	// Rated says this attempt moved the ratings: the player's first at this puzzle, with a
	// key, at a puzzle not from its own matches. Solver is the player's puzzle rating after
	// it (with a key, rated or not; ok false when it has none yet).
	Rated    bool
	Solver   Solver
	HasScore bool
}

// Attempt answers move at puzzle id by player ("" without a key): right when the move is
// worth as much as the best by the review's values. A player's first attempt at a puzzle
// from another's match is rated.
func (s *Service) Attempt(ctx context.Context, id, player string, mv Move) (Answer, error) {
	p, ok, err := s.store.Puzzle(ctx, id)
	switch {
	case err != nil:
		return Answer{}, err
	case !ok:
		return Answer{}, ErrPuzzleNotFound
	}
	i := optionOf(p, mv)
	if i < 0 {
		return Answer{}, ErrNotAnOption
	}
	best, _ := analysis.TopTwo(analysis.Decision{Candidates: p.Options})
	a := Answer{Correct: p.Options[i].Value >= best, Move: p.Options[i].Move, Puzzle: p}
	if player == "" {
		return a, nil
	}
	if slices.Contains(p.Players, player) {
		a.Solver, a.HasScore, err = s.store.Solver(ctx, player)
		return a, err
	}
	sv, first, err := s.store.RecordAttempt(ctx, Attempt{Puzzle: id, Player: player, Correct: a.Correct, At: s.clock()}, s.model.New(), s.rate)
	if err != nil {
		return Answer{}, err
	}
	a.Rated, a.Solver, a.HasScore = first, sv, true
	return a, nil
}

// rate is one rated attempt as a two-sided game of the rating model: the solver wins when
// right, the puzzle when not.
func (s *Service) rate(solver, puzzle openskill.Rating, correct bool) (openskill.Rating, openskill.Rating, error) {
	ranks := []int{2, 1}
	if correct {
		ranks = []int{1, 2}
	}
	out, err := s.model.RateRanks([][]openskill.Rating{{solver}, {puzzle}}, ranks)
	if err != nil {
		return solver, puzzle, err
	}
	return out[0][0], out[1][0], nil
}

// optionOf is the index of mv among p's options, compared by action, tile (either pip order)
// and end; a play without an end matches a tile that fits one end only. -1 when none.
func optionOf(p Puzzle, mv Move) int {
	found := -1
	for i, o := range p.Options {
		if o.Move.Action != mv.Action || o.Move.Tile != "" && !sameTile(o.Move.Tile, mv.Tile) {
			continue
		}
		if o.Move.End == mv.End {
			return i
		}
		if mv.End == "" {
			if found >= 0 {
				return -1 // two ends: the move must say which
			}
			found = i
		}
	}
	return found
}

func sameTile(a, b string) bool {
	ta, err1 := domain.ParseTile(a)
	tb, err2 := domain.ParseTile(b)
	return err1 == nil && err2 == nil && ta == tb
}

// OfPlayer lists up to limit puzzles from player's own decisions, newest first; only the
// player itself (caller) may read them.
func (s *Service) OfPlayer(ctx context.Context, caller, player string, limit int) ([]Puzzle, error) {
	if caller != player {
		return nil, ErrNotYourPuzzles
	}
	return s.store.PlayerPuzzles(ctx, player, limit)
}

// Rating is player's puzzle rating; ok false before its first rated attempt.
func (s *Service) Rating(ctx context.Context, player string) (Solver, bool, error) {
	return s.store.Solver(ctx, player)
}

// Displayed is a rating as the puzzles show it: its ordinal, like the ratings of play, and
// rounded to a whole number.
func Displayed(r openskill.Rating) int { return int(math.Round(r.Ordinal())) }
