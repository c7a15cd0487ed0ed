package ratings_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/ratings"
)

// memStore is the ratings' store in memory, for the projection's logic alone: a transaction
// works on a copy, put in place when fn succeeds.
type memStore struct {
	mu        sync.Mutex
	queue     map[string]ratings.Queued
	changes   map[string][]ratings.Change // by match
	standings map[[2]string]ratings.Standing
	logs      map[string][]domain.Event
	ends      []ratings.Queued
}

func newMemStore() *memStore {
	return &memStore{queue: map[string]ratings.Queued{}, changes: map[string][]ratings.Change{}, standings: map[[2]string]ratings.Standing{}, logs: map[string][]domain.Event{}}
}

func (s *memStore) clone() *memStore {
	c := newMemStore()
	for k, v := range s.queue {
		c.queue[k] = v
	}
	for k, v := range s.changes {
		c.changes[k] = slices.Clone(v)
	}
	for k, v := range s.standings {
		c.standings[k] = v
	}
	return c
}

// end commits match id's end: its log and its queue row.
func (s *memStore) end(id string, log []domain.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := ratings.Queued{Key: ratings.Key{EndedAt: log[len(log)-1].At, MatchID: id}, EndSeq: len(log)}
	s.logs[id] = log
	s.queue[id] = q
	s.ends = append(s.ends, q)
}

func (s *memStore) Events(_ context.Context, id string, after, limit int) ([]domain.Event, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	log, ok := s.logs[id]
	if !ok {
		return nil, domain.ErrMatchNotFound
	}
	out := log[min(after, len(log)):]
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return slices.Clone(out), nil
}

type memTx struct{ s *memStore }

func (t memTx) Pending(_ context.Context, limit int) ([]ratings.Queued, error) {
	var out []ratings.Queued
	for _, q := range t.s.queue {
		out = append(out, q)
	}
	slices.SortFunc(out, func(a, b ratings.Queued) int { return a.Key.Compare(b.Key) })
	return out[:min(limit, len(out))], nil
}

func (t memTx) Last(context.Context) (ratings.Key, bool, error) {
	var last ratings.Key
	ok := false
	for _, cs := range t.s.changes {
		if !ok || cs[0].Key.Compare(last) > 0 {
			last, ok = cs[0].Key, true
		}
	}
	return last, ok, nil
}

func (t memTx) Standings(_ context.Context, f ratings.Format, players []string) (map[string]ratings.Standing, error) {
	out := map[string]ratings.Standing{}
	for _, p := range players {
		if st, ok := t.s.standings[[2]string{p, string(f)}]; ok {
			out[p] = st
		}
	}
	return out, nil
}

func (t memTx) ChangesAfter(_ context.Context, k ratings.Key) ([]ratings.Change, error) {
	var out []ratings.Change
	for _, cs := range t.s.changes {
		if cs[0].Key.Compare(k) > 0 {
			out = append(out, cs...)
		}
	}
	slices.SortFunc(out, func(a, b ratings.Change) int { return -ratings.CompareChanges(a, b) })
	return out, nil
}

func (t memTx) Rewind(_ context.Context, k ratings.Key, restore, drop []ratings.Standing) error {
	for id, cs := range t.s.changes {
		if cs[0].Key.Compare(k) > 0 {
			t.s.queue[id] = ratings.Queued{Key: cs[0].Key, EndSeq: len(t.s.logs[id])}
			delete(t.s.changes, id)
		}
	}
	for _, st := range drop {
		delete(t.s.standings, [2]string{st.Player, string(st.Format)})
	}
	for _, st := range restore {
		t.s.standings[[2]string{st.Player, string(st.Format)}] = st
	}
	return nil
}

func (t memTx) Record(_ context.Context, done []ratings.Queued, cs []ratings.Change, standings []ratings.Standing) error {
	fresh := map[string][]ratings.Change{}
	for _, c := range cs {
		if len(t.s.changes[c.MatchID]) > 0 {
			return fmt.Errorf("%s rated twice", c.MatchID)
		}
		fresh[c.MatchID] = append(fresh[c.MatchID], c)
	}
	for id, c := range fresh {
		t.s.changes[id] = c
	}
	for _, st := range standings {
		t.s.standings[[2]string{st.Player, string(st.Format)}] = st
	}
	for _, q := range done {
		delete(t.s.queue, q.MatchID)
	}
	return nil
}

// Project runs fn on a copy, put in place when fn succeeds: a transaction. The test ends
// matches between transactions only, as one goroutine.
func (s *memStore) Project(_ context.Context, fn func(ratings.Tx) error) (bool, error) {
	c := s.clone()
	c.logs = s.logs
	if err := fn(memTx{c}); err != nil {
		return true, err
	}
	s.queue, s.changes, s.standings = c.queue, c.changes, c.standings
	return true, nil
}

func (s *memStore) Replace(context.Context, []ratings.Queued, []ratings.Change, []ratings.Standing) error {
	return nil
}

func (s *memStore) RatedEnds(context.Context) ([]ratings.Queued, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ends), nil
}

func (s *memStore) AllStandings(context.Context) ([]ratings.Standing, error) {
	var out []ratings.Standing
	for _, st := range s.standings {
		out = append(out, st)
	}
	slices.SortFunc(out, ratings.CompareStandings)
	return out, nil
}

func (s *memStore) AllChanges(context.Context) ([]ratings.Change, error) {
	var out []ratings.Change
	for _, cs := range s.changes {
		out = append(out, cs...)
	}
	slices.SortFunc(out, ratings.CompareChanges)
	return out, nil
}

func (s *memStore) PlayerStandings(context.Context, string) ([]ratings.Standing, error) {
	return nil, nil
}
func (s *memStore) PlayerChanges(context.Context, string, ratings.Format, *ratings.Key, int) ([]ratings.Change, error) {
	return nil, nil
}
func (s *memStore) Leaderboard(context.Context, ratings.Format, ratings.Players, *ratings.BoardPosition, int) ([]ratings.BoardRow, error) {
	return nil, nil
}
func (s *memStore) MatchChanges(context.Context, string) ([]ratings.Change, error) { return nil, nil }

// ratedLog is the log of a rated match of players ended at with scores.
func ratedLog(players []string, partners bool, scores []int, at time.Time) []domain.Event {
	info := make([]domain.PlayerInfo, len(players))
	for i, p := range players {
		if b, ok := strings.CutPrefix(p, ratings.BotPrefix); ok {
			info[i] = domain.PlayerInfo{Seat: i, Name: p, Kind: domain.Bot, Bot: b}
		} else {
			info[i] = domain.PlayerInfo{Seat: i, Name: p, Kind: domain.Human, Player: p}
		}
	}
	win := 0
	for i, s := range scores {
		if s > scores[win] {
			win = i
		}
	}
	return []domain.Event{
		{Seq: 1, Type: domain.TypeMatchCreated, At: at.Add(-time.Minute), Data: domain.MatchCreated{Players: info, Partnerships: partners, Rated: true}},
		{Seq: 2, Type: domain.TypeHandStarted, At: at.Add(-time.Minute), Data: domain.HandStarted{}},
		{Seq: 3, Type: domain.TypeMatchEnded, At: at, Data: domain.MatchEnded{WinnerSide: win, Scores: scores}},
	}
}

// TestProjectionRewinds: matches whose ends arrive in a random order, rated a batch at a
// time in between, end with the table a rebuild in the order of ends gives.
func TestProjectionRewinds(t *testing.T) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 1))
		s := newMemStore()
		p := ratings.NewProjector(ratings.Config{Store: s, Logs: s, Batch: 1 + rng.IntN(5)})
		pool := []string{"a", "b", "c", "d", "bot-random", "bot-greedy"}
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range 60 {
			n := 2 + rng.IntN(3)
			who := rng.Perm(len(pool))[:n]
			players := make([]string, n)
			for j, w := range who {
				players[j] = pool[w]
			}
			partners := n == 4 && rng.IntN(2) == 0
			sides := n
			if partners {
				sides = 2
			}
			scores := make([]int, sides)
			for j := range scores {
				scores[j] = 5 * rng.IntN(10)
			}
			scores[rng.IntN(sides)] = 100
			at := base.Add(time.Duration(rng.IntN(3600)) * time.Second)
			s.end(fmt.Sprintf("m%03d", i), ratedLog(players, partners, scores, at))
			if rng.IntN(3) == 0 {
				if _, err := p.RunOnce(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := p.Drain(context.Background()); err != nil {
			t.Fatal(err)
		}
		rebuilt, err := p.Rebuild(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		live, _ := s.AllStandings(context.Background())
		if !slices.Equal(live, rebuilt.Standings) {
			t.Fatalf("seed %d: live %v\nrebuilt %v", seed, live, rebuilt.Standings)
		}
		changes, _ := s.AllChanges(context.Background())
		if len(changes) != len(rebuilt.Changes) {
			t.Fatalf("seed %d: %d changes, rebuilt %d", seed, len(changes), len(rebuilt.Changes))
		}
		for i := range changes {
			if changes[i].Before != rebuilt.Changes[i].Before || changes[i].After != rebuilt.Changes[i].After || changes[i].AgainstEstablished != rebuilt.Changes[i].AgainstEstablished {
				t.Fatalf("seed %d: change %d %+v, rebuilt %+v", seed, i, changes[i], rebuilt.Changes[i])
			}
		}
	}
}
