package memstore

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/app/reviews"
	"github.com/allfives/allfives/domain/audit"
	"github.com/allfives/allfives/repository"
)

// Store is a mutex-guarded map of match logs. The zero value is not usable; call New.
type Store struct {
	mu      sync.RWMutex
	matches map[string]*match
	reviews map[reviewKey]reviews.Record // review.go; made on first write
	people  playerBook                   // the players (players.go), under mu too
	// tickets are the single-use stream tickets (tickets.go), by ticketKey, under ticketsMu.
	ticketsMu sync.Mutex
	tickets   map[string]players.Ticket
}

// match is one stored match: its record, read model, log and idempotency records.
type match struct {
	rec  referee.MatchRecord
	sum  domain.Summary
	log  []stored
	idem map[seatKey]referee.IdempotencyRecord
}

// seatKey names an idempotency record: keys are per seat (docs/api-matches.md, "Idempotency").
type seatKey struct {
	seat int
	key  string
}

// stored is an event as a durable store keeps it: the encoded payload and its chain link, so
// that VerifyChain re-hashes exactly the bytes that were hashed on the way in.
type stored struct {
	seq  int
	typ  domain.EventType
	at   time.Time
	data []byte
	prev []byte
	hash []byte
}

// New returns an empty store.
func New() *Store { return &Store{matches: make(map[string]*match)} }

var _ referee.EventStore = (*Store)(nil)

// Create stores a new match with its opening events, refused when it is a challenge beyond
// rec.ChallengeCap. A match with the same id already stored
// is a *domain.VersionConflictError with Expected 0: creating is appending to an empty log.
func (s *Store) Create(ctx context.Context, rec referee.MatchRecord, events []domain.Event, sum domain.Summary) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if rec.ID == "" {
		return domain.Invalidf("a match needs an id")
	}
	log, err := chain(nil, 0, events)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.matches[rec.ID]; ok {
		return &domain.VersionConflictError{Expected: 0, Current: len(m.log)}
	}
	if err := repository.CheckChallenges(rec, s.challenges); err != nil {
		return err
	}
	rec = copyRecord(rec)
	rec.CreatedAt = rec.CreatedAt.UTC()
	sum = copySummary(sum)
	sum.Version = len(log) // the read model's version is the log's head, whatever was passed
	s.matches[rec.ID] = &match{rec: rec, sum: sum, log: log, idem: make(map[seatKey]referee.IdempotencyRecord)}
	return nil
}

// Append adds a.Events after a.Expected, with the read model and the idempotency record, all
// or nothing.
func (s *Store) Append(ctx context.Context, a referee.Append) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.matches[a.MatchID]
	if !ok {
		return fmt.Errorf("append to %q: %w", a.MatchID, domain.ErrMatchNotFound)
	}
	if cur := len(m.log); cur != a.Expected {
		return &domain.VersionConflictError{Expected: a.Expected, Current: cur}
	}
	log, err := chain(m.log[len(m.log)-1].hash, a.Expected, a.Events)
	if err != nil {
		return err
	}
	var idem referee.IdempotencyRecord
	if a.Idempotency != nil {
		idem = *a.Idempotency
		if old, dup := m.idem[seatKey{idem.Seat, idem.Key}]; dup {
			return fmt.Errorf("%w: key %q of seat %d already recorded seqs %d..%d", domain.ErrIdempotencyReuse, idem.Key, idem.Seat, old.FirstSeq, old.LastSeq)
		}
		if idem.FirstSeq == 0 && idem.LastSeq == 0 {
			idem.FirstSeq, idem.LastSeq = a.Expected+1, a.Expected+len(log)
		}
		idem.CreatedAt = idem.CreatedAt.UTC()
	}
	// Nothing can fail from here on, which is what makes the append atomic.
	m.log = append(m.log, log...)
	seeded := m.sum.Seeded // fixed at creation, as the SQL stores keep it
	m.sum = copySummary(a.Summary)
	m.sum.Version, m.sum.Seeded = len(m.log), seeded
	for _, sr := range a.Seats {
		for i := range m.rec.Seats {
			if m.rec.Seats[i].Seat == sr.Seat {
				m.rec.Seats[i] = copySeat(sr)
			}
		}
	}
	if a.Idempotency != nil {
		m.idem[seatKey{idem.Seat, idem.Key}] = idem
	}
	return nil
}

// Match returns the record (with the secret seed) and the read model.
func (s *Store) Match(ctx context.Context, id string) (referee.StoredMatch, error) {
	if err := ctx.Err(); err != nil {
		return referee.StoredMatch{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	m, ok := s.matches[id]
	if !ok {
		return referee.StoredMatch{}, fmt.Errorf("match %q: %w", id, domain.ErrMatchNotFound)
	}
	return referee.StoredMatch{Record: copyRecord(m.rec), Summary: copySummary(m.sum)}, nil
}

// Events decodes the stored events with seq > after, at most limit of them (0: all).
func (s *Store) Events(ctx context.Context, id string, after, limit int) ([]domain.Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	m, ok := s.matches[id]
	if !ok {
		return nil, fmt.Errorf("events of %q: %w", id, domain.ErrMatchNotFound)
	}
	after = max(after, 0)
	if after >= len(m.log) {
		return []domain.Event{}, nil
	}
	rows := m.log[after:]
	if limit > 0 && limit < len(rows) {
		rows = rows[:limit]
	}
	out := make([]domain.Event, len(rows))
	for i, r := range rows {
		// Decoding the stored bytes, rather than keeping the caller's values, is the copy: and
		// it proves the payload survives its durable form, as it must in the SQLite store.
		data, err := domain.DecodeEventData(r.typ, r.data)
		if err != nil {
			return nil, fmt.Errorf("events of %q, seq %d: %w", id, r.seq, err)
		}
		out[i] = domain.Event{Seq: r.seq, Type: r.typ, At: r.at, Data: data}
	}
	return out, nil
}

// Idempotency returns the record seat stored for (id, key); ok is false when there is none,
// including when the match does not exist.
func (s *Store) Idempotency(ctx context.Context, id string, seat int, key string) (referee.IdempotencyRecord, bool, error) {
	if err := ctx.Err(); err != nil {
		return referee.IdempotencyRecord{}, false, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	m, ok := s.matches[id]
	if !ok {
		return referee.IdempotencyRecord{}, false, nil
	}
	rec, ok := m.idem[seatKey{seat, key}]
	return rec, ok, nil
}

// VerifyChain re-hashes the stored payloads and checks every link.
func (s *Store) VerifyChain(ctx context.Context, id string) (audit.ChainReport, error) {
	links, err := s.Links(ctx, id)
	if err != nil {
		return audit.ChainReport{}, fmt.Errorf("verify: %w", err)
	}
	return audit.VerifyLinks(links), nil
}

// Links returns the stored log as the chain sees it, in seq order: copies of the bytes that
// were hashed and the hashes stored beside them.
func (s *Store) Links(ctx context.Context, id string) ([]audit.ChainLink, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	m, ok := s.matches[id]
	if !ok {
		return nil, fmt.Errorf("links %q: %w", id, domain.ErrMatchNotFound)
	}
	links := make([]audit.ChainLink, len(m.log))
	for i, r := range m.log {
		links[i] = audit.ChainLink{Seq: r.seq, Type: r.typ, Data: slices.Clone(r.data), PrevHash: slices.Clone(r.prev), Hash: slices.Clone(r.hash)}
	}
	return links, nil
}

// chain checks that events continue a log at version after, encodes their payloads and links
// each to the previous hash.
func chain(prev []byte, after int, events []domain.Event) ([]stored, error) {
	payloads, err := repository.EncodeBatch(events)
	if err != nil {
		return nil, err
	}
	if err := repository.StartsAt(events, after); err != nil {
		return nil, err
	}
	out := make([]stored, len(events))
	for i, l := range repository.Link(prev, events, payloads) {
		out[i] = stored{seq: l.Seq, typ: l.Type, at: events[i].At.UTC(), data: l.Data, prev: l.PrevHash, hash: l.Hash}
	}
	return out, nil
}

func copyRecord(r referee.MatchRecord) referee.MatchRecord {
	r.Seats = slices.Clone(r.Seats)
	for i := range r.Seats {
		r.Seats[i] = copySeat(r.Seats[i])
	}
	return r
}

func copySeat(s referee.SeatRecord) referee.SeatRecord {
	s.TokenHash = slices.Clone(s.TokenHash)
	s.InviteHash = slices.Clone(s.InviteHash)
	return s
}

func copySummary(s domain.Summary) domain.Summary {
	s.Players = slices.Clone(s.Players)
	s.Scores = slices.Clone(s.Scores)
	if s.WinnerSide != nil {
		w := *s.WinnerSide
		s.WinnerSide = &w
	}
	s.UpdatedAt = s.UpdatedAt.UTC()
	s.OpenSeats = slices.Clone(s.OpenSeats)
	if s.Turn != nil {
		t := *s.Turn
		s.Turn = &t
	}
	if s.Deadline != nil {
		d := s.Deadline.UTC()
		s.Deadline = &d
	}
	return s
}

// IdempotencyRecords returns every idempotency record of match id in key order, then seat order.
func (s *Store) IdempotencyRecords(ctx context.Context, id string) ([]referee.IdempotencyRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	m, ok := s.matches[id]
	if !ok {
		return nil, fmt.Errorf("idempotency records of %q: %w", id, domain.ErrMatchNotFound)
	}
	out := make([]referee.IdempotencyRecord, 0, len(m.idem))
	for _, k := range slices.SortedFunc(maps.Keys(m.idem), func(a, b seatKey) int {
		return cmp.Or(strings.Compare(a.key, b.key), cmp.Compare(a.seat, b.seat))
	}) {
		out = append(out, m.idem[k])
	}
	return out, nil
}
