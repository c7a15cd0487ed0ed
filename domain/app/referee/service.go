package referee

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/names"
)

// MaxBotSteps bounds the bot actions run after one command: far more than any match needs
// (a match ends within a few thousand events), so reaching it means a strategy is broken.
const MaxBotSteps = 100_000

// MatchService is the use case layer: it creates matches, authenticates seats, runs commands
// and bot turns, and reads matches as a viewer may see them. It is safe for concurrent use;
// commands on one match are serialized.
type MatchService struct {
	store  EventStore
	clock  Clock
	random io.Reader
	bots   map[string]domain.Strategy
	cache  *matchCache
	watch  watchers
	// waitingTTL is how long a waiting match lasts without a join or leave; 0: for ever.
	waitingTTL time.Duration
	pool       *botPool // nil: bots play inside the request that gives them the turn
	pacer      *pacer   // plays paced bots' turns after the answer (pacer.go)
	log        *slog.Logger
	pause      func(ctx context.Context, d time.Duration) error // holds a paced bot's decision to its floor
	keys       PlayerKeys                                       // nil: no players, keys are refused
	// ratedTurnSeconds is the clock of a rated match created without one; rematchTTL is how
	// long a rematch offer's reserved seats have to be taken.
	ratedTurnSeconds int
	rematchTTL       time.Duration
	challenges       int                    // ServiceConfig.MaxChallenges
	sealer           atomic.Pointer[Sealer] // seal.go; nil: no match is sealed
	unsealed         unsealedSet            // seal.go: commitments the sealer said are not sealed
}

// ServiceConfig wires a MatchService. Zero fields take the production defaults.
type ServiceConfig struct {
	Store      EventStore
	Clock      Clock                      // default SystemClock
	Random     io.Reader                  // default crypto/rand.Reader: seeds, ids and tokens
	Bots       map[string]domain.Strategy // strategies by name
	CacheSize  int                        // most matches kept in memory; 0: bounded by CacheBytes only
	CacheBytes int64                      // estimated memory the cached matches may take; default 256 MiB
	// WaitingTTL is how long a waiting match's open seats may stay empty before Sweep expires
	// it; 0 means DefaultWaitingTTL, a negative value never.
	WaitingTTL time.Duration
	// BotWorkers, when positive, plays matches of bots only off the request path with that
	// many workers: Create answers at once with the match in progress (docs/api-matches.md, "Matches
	// of bots"). Zero plays them inside Create, for tools that want a finished match back.
	BotWorkers int
	Logger     *slog.Logger // default slog.Default()
	// Pause waits d, or until ctx ends (then it returns ctx's error); the referee calls it after
	// each decision of a Paced strategy, with what is left of the strategy's floor (0 when the
	// decision took longer). Default: a real timer. Tests inject one that records.
	Pause func(ctx context.Context, d time.Duration) error
	// Players authenticates player keys and finds players by id, for seats bound to players
	// (docs/api-players.md, "Players"); nil: a key is refused, and no seat may name a player.
	Players PlayerKeys
	// RatedTurnSeconds is the clock a rated match created without turn_seconds takes; 0 means
	// DefaultRatedTurnSeconds.
	RatedTurnSeconds int
	// RematchTTL is how long the seats a rematch offer reserves have to be taken before the
	// sweeper cancels it; 0 means DefaultRematchTTL.
	RematchTTL time.Duration
	// BotQueue bounds the matches of bots only the pool holds, queued or being played: one
	// more is ErrBotsBusy (limits.go). MaxChallenges bounds the challenges waiting for an
	// answer from one player and to one player: one more is ErrTooManyChallenges,
	// counted by the store in the create's transaction (MatchRecord.ChallengeCap). 0: no bound.
	BotQueue, MaxChallenges int
}

// DefaultRatedTurnSeconds is the clock of a rated match created without one.
const DefaultRatedTurnSeconds = 60

// DefaultRematchTTL is how long a rematch offer stands.
const DefaultRematchTTL = 10 * time.Minute

// sleep waits d, or until ctx ends, when it returns ctx's error: ServiceConfig.Pause's default.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// DefaultCacheBytes bounds the match cache when ServiceConfig.CacheBytes is 0.
const DefaultCacheBytes = 256 << 20

// NewMatchService returns a service over cfg.Store.
func NewMatchService(cfg ServiceConfig) *MatchService {
	if cfg.Clock == nil {
		cfg.Clock = SystemClock{}
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	if cfg.CacheBytes <= 0 {
		cfg.CacheBytes = DefaultCacheBytes
	}
	switch {
	case cfg.WaitingTTL == 0:
		cfg.WaitingTTL = DefaultWaitingTTL
	case cfg.WaitingTTL < 0:
		cfg.WaitingTTL = 0
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Pause == nil {
		cfg.Pause = sleep
	}
	if cfg.RatedTurnSeconds == 0 {
		cfg.RatedTurnSeconds = DefaultRatedTurnSeconds
	}
	if cfg.RematchTTL == 0 {
		cfg.RematchTTL = DefaultRematchTTL
	}
	s := &MatchService{
		store: cfg.Store, clock: cfg.Clock, random: cfg.Random, bots: cfg.Bots,
		cache: newMatchCache(cfg.CacheSize, cfg.CacheBytes), waitingTTL: cfg.WaitingTTL, log: cfg.Logger,
		pause: cfg.Pause, keys: cfg.Players, ratedTurnSeconds: cfg.RatedTurnSeconds, rematchTTL: cfg.RematchTTL,
		challenges: max(cfg.MaxChallenges, 0),
	}
	if cfg.BotWorkers > 0 {
		s.pool = newBotPool(s, cfg.BotWorkers, cfg.BotQueue, cfg.Logger)
	}
	s.pacer = newPacer(s, cfg.Logger)
	return s
}

// BotNames lists the strategies a seat may name, in order.
func (s *MatchService) BotNames() []string {
	return slices.Sorted(maps.Keys(s.bots))
}

// MaxNameLength is the most characters (not bytes) a player's name may have.
const MaxNameLength = names.MaxLength

// checkName returns the form of a seat's new name that is kept and shown, or why it is
// refused: the one rule is domain/names (the PRECIS Nickname profile, no invisible characters,
// no mix of scripts beyond UTS #39's moderately restrictive level: names.Admit). The kept form
// is the enforced one, not the input as typed, so that what every client prints is what was
// compared: "ＡＤＡ" is kept as "ADA", and runs of spaces as one. A seat bound to a player
// shows the player's name, which was judged when the player took it, and is not judged again.
func checkName(name string) (string, error) {
	return names.Admit(name)
}

// sameNameAs is the seat, other than seat, whose name is name's to a reader (names.Alike:
// "Ada", "ada" and "ＡＤＡ" are one name, and so are "Bob" and "Вob"), or -1: two seats of one
// match may not share a name, or a reader could not tell them apart. player is the player the
// name belongs to ("" for an anonymous seat): two seats bound to players are told apart by
// their players, whose names the store keeps apart (a pair kept from before look-alikes were
// one name may still sit together).
func sameNameAs(players []domain.PlayerInfo, seat int, name, player string) int {
	for _, p := range players {
		if p.Seat == seat || p.Kind == domain.Open || player != "" && p.Player != "" {
			continue
		}
		if names.Alike(p.Name, name) {
			return p.Seat
		}
	}
	return -1
}

// SeatToken is a human seat's secret, returned once at creation.
type SeatToken struct {
	Seat  int
	Token string
}

// CreateRequest asks for a new match. Seed, when set, is 64 hex characters. A player of kind
// open is a seat for someone to join; Listed puts the match in the lobby; TurnSeconds sets a
// clock, AutoplayAfter how many timeouts in a row hand a seat to its bot.
type CreateRequest struct {
	Players       []domain.PlayerInfo
	Partnerships  bool
	Target        int
	Seed          string
	Listed        bool
	TurnSeconds   int
	AutoplayAfter int
	// Key is the creator's bearer credential: a player key when a player entry is "me".
	Key string
	// Rated makes the match move its players' ratings: every seat a player or a bot, each
	// bot at most once, no chosen seed (checkRated).
	Rated bool
	// Entered says every player the entries name accepted its seat beforehand, by entering a
	// tournament (docs/tournaments.md): a player id binds the seat instead of reserving it,
	// and a rated match may take the seed the tournament drew for a duplicate round, which no
	// player chose. Only the tournament service sets it; the API never does.
	Entered bool
}

// SeatInvite is an open seat's secret invite, returned once at creation.
type SeatInvite struct {
	Seat   int
	Invite string
}

// Created is a new match as its creator sees it (a spectator's view), its seat tokens and the
// invites of its open seats.
type Created struct {
	Match   domain.MatchView
	Tokens  []SeatToken
	Invites []SeatInvite
}

// Create starts a match, stores it, and lets bots play until a human is to move; a match of
// bots only is handed to the bot pool, when there is one, and returned in progress.
func (s *MatchService) Create(ctx context.Context, req CreateRequest) (_ Created, err error) {
	defer domain.Wrap(&err, "create match")
	entries, bound, err := s.bindPlayers(ctx, req.Players, req.Key, req.Entered)
	if err != nil {
		return Created{}, err
	}
	return s.create(ctx, "", req, entries, bound)
}

// create starts match id (a fresh one when id is "") with the seats entries, bound by seat to
// the players of bound.
func (s *MatchService) create(ctx context.Context, id string, req CreateRequest, entries []domain.PlayerInfo, bound map[int]string) (Created, error) {
	players, err := s.checkPlayers(entries)
	if err != nil {
		return Created{}, err
	}
	if req.Rated {
		if err := checkRated(players, bound, drawnSeed(req)); err != nil {
			return Created{}, err
		}
		if req.TurnSeconds == 0 {
			// A rated match always has a clock, so a player who walks away is played for and
			// the result counts (docs/ratings.md, "Who is rated").
			req.TurnSeconds = s.ratedTurnSeconds
		}
	}
	// A chosen seed lets its chooser compute every hand: never for a match others may join,
	// who could not know that the creator sees their tiles (docs/api-records.md, "Checking a deal yourself").
	if req.Seed != "" && slices.ContainsFunc(players, func(p domain.PlayerInfo) bool { return p.Kind == domain.Open }) {
		return Created{}, domain.ErrSeedWithOpenSeats
	}
	seed, seeded, err := s.seedFor(req.Seed)
	if err != nil {
		return Created{}, err
	}
	if id == "" {
		if id, err = s.randomText(16, hex.EncodeToString); err != nil {
			return Created{}, err
		}
	}
	now := s.clock.Now()
	spec := domain.MatchSpec{
		Players: players, Partnerships: req.Partnerships, Target: req.Target, Seeded: seeded,
		Listed: req.Listed, TurnSeconds: req.TurnSeconds, AutoplayAfter: req.AutoplayAfter,
		Rated: req.Rated,
	}
	events, err := domain.Start(spec, seed, now)
	if err != nil {
		return Created{}, err
	}
	g, err := newGame(id, seed, events)
	if err != nil {
		return Created{}, err
	}
	offPath := s.pool != nil && botsOnly(g.match)
	if !offPath {
		more, err := s.runBots(ctx, g, now)
		if err != nil {
			return Created{}, err
		}
		events = append(events, more...)
	}
	rec := MatchRecord{ID: id, Seed: seed, CreatedAt: now, ChallengeCap: s.challenges}
	out := Created{}
	for _, p := range players {
		sr := SeatRecord{Seat: p.Seat, Name: p.Name, Kind: p.Kind, Bot: p.Bot, Player: bound[p.Seat]}
		switch {
		case p.Kind == domain.Open && sr.Player != "":
			// A challenge: the reserved player joins with its key, no invite (docs/api-players.md, "Players").
			rec.Seats = append(rec.Seats, sr)
			continue
		case p.Kind == domain.Human:
			tok, hash, err := s.newSecret(32)
			if err != nil {
				return Created{}, err
			}
			sr.TokenHash = hash
			out.Tokens = append(out.Tokens, SeatToken{Seat: p.Seat, Token: tok})
		case p.Kind == domain.Open:
			// 128 random bits, stored only as a hash, like a token (docs/api-matches.md, "Playing with others").
			inv, hash, err := s.newSecret(16)
			if err != nil {
				return Created{}, err
			}
			sr.InviteHash = hash
			out.Invites = append(out.Invites, SeatInvite{Seat: p.Seat, Invite: inv})
		}
		rec.Seats = append(rec.Seats, sr)
	}
	if offPath && !s.pool.reserve() {
		return Created{}, ErrBotsBusy
	}
	if err := s.store.Create(ctx, rec, events, g.match.Summary()); err != nil {
		if offPath {
			s.pool.unreserve()
		}
		return Created{}, err
	}
	fresh := &entry{keysAll: true} // a new match has no idempotency keys yet
	fresh.setRecord(rec)
	fresh.set(g)
	s.cache.unpin(s.cache.put(fresh))
	s.watch.wake(id) // no one follows a new match yet, but WatchAll's followers hear of it
	if offPath {
		s.pool.submitReserved(id)
	} else {
		s.handOn(id, g.match, time.Now())
	}
	out.Match = g.match.View(domain.Spectator())
	return out, nil
}

// newSecret draws n random bytes and returns them as URL-safe text with their SHA-256, the
// only form a store keeps.
func (s *MatchService) newSecret(n int) (text string, hash []byte, err error) {
	text, err = s.randomText(n, base64.RawURLEncoding.EncodeToString)
	if err != nil {
		return "", nil, err
	}
	sum := sha256.Sum256([]byte(text))
	return text, sum[:], nil
}

func (s *MatchService) checkPlayers(in []domain.PlayerInfo) ([]domain.PlayerInfo, error) {
	if len(in) < 2 || len(in) > 4 {
		return nil, domain.Invalidf("a match has 2, 3 or 4 players, not %d", len(in))
	}
	out := make([]domain.PlayerInfo, len(in))
	for i, p := range in {
		p.Seat = i
		if p.Kind == domain.Open {
			if strings.TrimSpace(p.Name) != "" || p.Bot != "" {
				return nil, domain.Invalidf("players[%d] is open: the player who joins names it", i)
			}
			p.Name = ""
			out[i] = p
			continue
		}
		switch p.Kind {
		case domain.Human:
			if p.Bot != "" {
				return nil, domain.Invalidf("players[%d] is human and cannot name a bot strategy", i)
			}
		case domain.Bot:
			if _, ok := s.bots[p.Bot]; !ok {
				return nil, domain.Invalidf("players[%d].bot %q is not a strategy; choose one of %s", i, domain.Truncate(p.Bot, 32), strings.Join(s.BotNames(), ", "))
			}
			if p.Name == "" {
				p.Name = botSeatName(out[:i], i, p.Bot)
			}
		default:
			return nil, domain.Invalidf("players[%d].kind must be human, bot or open", i)
		}
		name := p.Name // a bound seat's: its player's name, as kept (bindPlayers)
		if p.Player == "" {
			var err error
			if name, err = checkName(p.Name); err != nil {
				return nil, domain.Invalidf("players[%d].name %s", i, err)
			}
		}
		p.Name = name
		if j := sameNameAs(out[:i], i, name, p.Player); j >= 0 {
			return nil, domain.Invalidf("players[%d].name %q is the same name as players[%d]'s %q (names are compared ignoring case and width, and letters of other scripts that look alike): give each seat its own", i, name, j, out[j].Name)
		}
		out[i] = p
	}
	return out, nil
}

// botSeatName names a bot seat given no name after its bot's player, as its ratings and the
// leaderboard name it: "bot-greedy". A second seat of the same strategy (in a match that is not
// rated, where a bot may sit twice) is "bot-greedy 2", and so on, since two seats may not
// share a name.
func botSeatName(before []domain.PlayerInfo, seat int, strategy string) string {
	base := BotPlayer(strategy)
	name := base
	for n := 2; sameNameAs(before, seat, name, "") >= 0; n++ {
		name = fmt.Sprintf("%s %d", base, n)
	}
	return name
}

func (s *MatchService) seedFor(h string) (domain.Seed, bool, error) {
	if h != "" {
		seed, err := domain.ParseSeed(strings.ToLower(h))
		return seed, true, err
	}
	seed, err := domain.NewSeed(s.random)
	return seed, false, err
}

func (s *MatchService) randomText(n int, enc func([]byte) string) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(s.random, b); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	return enc(b), nil
}

// Authenticate maps a bearer token to its seat in match id; the empty token is a spectator.
func (s *MatchService) Authenticate(ctx context.Context, id, token string) (domain.Viewer, error) {
	ctx, key := s.foldKey(ctx, id, token) // a player key and the head check in one read (headkey.go)
	var seats []SeatRecord
	checked := 0
	e, err := s.load(ctx, id)
	var ce *CorruptError
	switch {
	case errors.As(err, &ce):
		// The log does not fold, but its seats still may read its audit.
		if seats, err = s.seatsOf(ctx, id); err != nil {
			return domain.Viewer{}, err
		}
	case err != nil:
		return domain.Viewer{}, err
	default:
		// The published seats: joins and leaves replace them whole, so no lock is needed and a
		// read never waits for a move in flight. The version is read first: seats are
		// published no older than the match (commit, load), so the token held its seat at
		// that version, and a join or leave of the seat after it ends what the token may see
		// (docs/api-matches.md, "When a seat changes hands").
		checked = int(e.ver.Load())
		seats = *e.seats.Load()
		s.cache.unpin(e)
	}
	if token == "" {
		return domain.Spectator(), nil
	}
	if players.IsKey(token) {
		// A key stands for the seat its player holds here (docs/api-players.md, "Players").
		seat, err := s.heldSeat(ctx, key, token, seats)
		switch {
		case err != nil:
			return domain.Viewer{}, err
		case seat < 0:
			// Reserved a seat it has not taken: the player reads the match it is asked to
			// (docs/api-matches.md, "Consent"), and sees what anyone sees.
			return domain.Spectator(), nil
		}
		return domain.SeatViewer(seat).CheckedAt(checked), nil
	}
	sum := sha256.Sum256([]byte(token))
	seat := tokenSeat(seats, sum[:])
	if seat < 0 && unclaimed(seats) {
		// A rematch's seat claimed since these seats were read, maybe on another instance:
		// the store has its token hash (docs/api-players.md, "Players").
		if seats, err = s.seatsOf(ctx, id); err != nil {
			return domain.Viewer{}, err
		}
		seat = tokenSeat(seats, sum[:])
	}
	if seat < 0 {
		return domain.Viewer{}, domain.ErrUnauthorized
	}
	return domain.SeatViewer(seat).CheckedAt(checked), nil
}

// tokenSeat is the seat whose token hashes to sum, or -1.
func tokenSeat(seats []SeatRecord, sum []byte) int {
	seat := -1
	for _, sr := range seats {
		// Compare against every seat so the time taken does not say which seat matched.
		if len(sr.TokenHash) == len(sum) && subtle.ConstantTimeCompare(sr.TokenHash, sum) == 1 {
			seat = sr.Seat
		}
	}
	return seat
}
