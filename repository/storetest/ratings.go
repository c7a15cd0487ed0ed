package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
)

// RatingsStore is what the ratings' projection needs of a store: the logs, the players and
// the ratings.
type RatingsStore interface {
	referee.EventStore
	players.Store
	ratings.Store
}

// RatingsInstances opens the instances of a ratings test: Open returns instance name's store
// on one database shared by every instance (a new database for each test), closed when t
// ends; Kill ends instance name's sessions at once, as a crash would, transactions in flight
// included (nil: closing its store is the kill).
type RatingsInstances struct {
	Open func(t *testing.T, name string) RatingsStore
	Kill func(t *testing.T, name string)
}

// fastBots plays every strategy name with random or greedy, so that matches of the four
// bots (four distinct rated players) end in milliseconds.
func fastBots(seed uint64) map[string]domain.Strategy {
	return map[string]domain.Strategy{
		bot.NameRandom: bot.NewRandom(seed), bot.NameGreedy: bot.NewGreedy(),
		bot.NamePIMC: bot.NewGreedy(), bot.NameExpert: bot.NewRandom(seed + 1),
	}
}

// jumbled is a clock that reads a random time within an hour of a fixed base, so that the
// order of the matches' ends (their match.ended times) is not the order their ends commit:
// the projection must rewind to rate them in the order they ended.
type jumbled struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func (c *jumbled) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	base := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	return base.Add(time.Duration(c.rng.Int64N(int64(time.Hour))))
}

// ratedInstance is one server instance of the test: its store, referee and projection.
type ratedInstance struct {
	name  string
	store RatingsStore
	svc   *referee.MatchService
	proj  *ratings.Projector
	keys  *players.Service
}

// RunRatingsProjection is the projection test of docs/ratings.md ("The projection"): about
// 200 rated matches between players and bots, of every format, created on two instances
// and ended in a shuffled order interleaving both, with match.ended times that disagree with the
// order the ends commit; both instances rate while the matches end, one is killed mid-way,
// the other finishes. Then every rated match is rated exactly once, the queue is empty, and
// the live table equals a rebuild from the logs, figure for figure.
func RunRatingsProjection(t *testing.T, inst RatingsInstances) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rng := rand.New(rand.NewPCG(25, 2026))
	names := []string{"a", "b"}
	all := map[string]*ratedInstance{}
	for i, name := range names {
		s := inst.Open(t, name)
		keys := players.NewService(players.Config{Store: s})
		svc := referee.NewMatchService(referee.ServiceConfig{
			Store: s, Bots: fastBots(uint64(i + 1)), Players: keys,
			Clock: &jumbled{rng: rand.New(rand.NewPCG(uint64(i), 7))},
		})
		t.Cleanup(svc.Close)
		all[name] = &ratedInstance{name: name, store: s, svc: svc, keys: keys,
			proj: ratings.NewProjector(ratings.Config{Store: s, Logs: s, Batch: 7})}
	}
	a, b := all["a"], all["b"]

	// Six players, made on either instance.
	type person struct {
		id, key string
	}
	var people []person
	for i := range 6 {
		c, err := all[names[i%2]].keys.Create(ctx, fmt.Sprintf("Player %d", i))
		if err != nil {
			t.Fatal(err)
		}
		people = append(people, person{c.Player.ID, c.Key})
	}

	// The matches, created in progress: each waits for its first human to move, or (bots
	// only) ends in its create.
	type pending struct {
		inst   *ratedInstance
		id     string
		tokens map[int]string // seat -> token or key
	}
	var live []pending
	created := 0
	for created < 200 {
		in := all[names[rng.IntN(2)]]
		n := 2 + rng.IntN(3)
		partners := n == 4 && rng.IntN(2) == 0
		humans := rng.IntN(min(n, 3)) // 0, 1 or 2 players, the rest bots
		seats := make([]domain.PlayerInfo, n)
		bots := slices.Clone(bot.Names())
		rng.Shuffle(len(bots), func(i, j int) { bots[i], bots[j] = bots[j], bots[i] })
		who := rng.Perm(len(people))[:humans]
		order := rng.Perm(n)
		for i, seat := range order {
			if i < humans {
				continue
			}
			seats[seat] = domain.PlayerInfo{Name: "bot " + bots[i], Kind: domain.Bot, Bot: bots[i]}
		}
		key := ""
		for i := range humans {
			seat := order[i]
			if i == 0 {
				seats[seat] = domain.PlayerInfo{Kind: domain.Human, Player: referee.Me}
				key = people[who[0]].key
			} else {
				seats[seat] = domain.PlayerInfo{Kind: domain.Human, Player: people[who[i]].id}
			}
		}
		c, err := in.svc.Create(ctx, referee.CreateRequest{Players: seats, Partnerships: partners, Target: 25 + 5*rng.IntN(6), Key: key, Rated: true})
		if err != nil {
			t.Fatalf("create %+v: %v", seats, err)
		}
		created++
		p := pending{inst: in, id: c.Match.ID, tokens: map[int]string{}}
		for i := range humans {
			seat := order[i]
			if i == 0 {
				p.tokens[seat] = people[who[0]].key
				continue
			}
			if _, err := in.svc.Join(ctx, c.Match.ID, referee.JoinRequest{Seat: seat, Key: people[who[i]].key}); err != nil {
				t.Fatalf("join %s: %v", c.Match.ID, err)
			}
			p.tokens[seat] = people[who[i]].key
		}
		if humans > 0 {
			live = append(live, p)
		}
	}
	// One anonymous attempt, refused: a rated match seats only players and bots.
	if _, err := a.svc.Create(ctx, referee.CreateRequest{Rated: true, Players: []domain.PlayerInfo{{Name: "Anon", Kind: domain.Human}, {Name: "g", Kind: domain.Bot, Bot: bot.NameGreedy}}}); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("a rated match with an anonymous seat: %v, want invalid", err)
	}

	// Both instances rate while the matches end in a shuffled order, each played on a
	// random instance; instance a is killed once half have ended.
	runCtx := map[string]context.Context{}
	stop := map[string]context.CancelFunc{}
	var wg sync.WaitGroup
	var rated atomic.Int64
	for _, name := range names {
		runCtx[name], stop[name] = context.WithCancel(ctx)
		wg.Add(1)
		go func(in *ratedInstance, c context.Context) {
			defer wg.Done()
			for c.Err() == nil {
				n, _ := in.proj.RunOnce(c) // a's errors once killed are the point
				rated.Add(int64(n))
				time.Sleep(time.Millisecond)
			}
		}(all[name], runCtx[name])
	}
	rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
	killed := false
	for i, p := range live {
		in := p.inst // each instance plays its own matches: an SQLite file's instances share no cache
		if killed {
			in = b // a is gone: b reads a's matches from the store
		}
		playOut(t, ctx, in.svc, p.id, p.tokens)
		if !killed && i >= len(live)/2 {
			killed = true
			if inst.Kill != nil {
				inst.Kill(t, "a")
			}
			stop["a"]()
		}
	}
	stop["b"]()
	wg.Wait()
	if _, err := b.proj.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if rated.Load() == 0 {
		t.Fatal("neither instance rated a match while they ended")
	}
	if a.proj.Rewinds()+b.proj.Rewinds() == 0 {
		t.Fatal("no rewind: the ends' times should have disagreed with their commits' order")
	}
	t.Logf("%d rated matches, %d rated or skipped while they ended, rewinds: a %d, b %d", created, rated.Load(), a.proj.Rewinds(), b.proj.Rewinds())
	CheckRatingsRebuild(t, ctx, b.store, created)
	checkStandingCounted(t, ctx, b.store)
}

// checkStandingCounted: the matches of the projection test are of both kinds, some against
// established opponents and some not (docs/ratings.md, "Standing"), and each standing counts
// its own: so the rebuild's equality above covered the count, rewinds included.
func checkStandingCounted(t *testing.T, ctx context.Context, store RatingsStore) {
	t.Helper()
	changes, err := store.AllChanges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	counted := map[[2]string]int{}
	against := 0
	for _, c := range changes {
		if c.AgainstEstablished {
			against++
			counted[[2]string{c.Player, string(c.Format)}]++
		}
	}
	if against == 0 || against == len(changes) {
		t.Fatalf("%d of %d changes against established opponents: the test shows nothing of the standing", against, len(changes))
	}
	standings, err := store.AllStandings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range standings {
		if n := counted[[2]string{st.Player, string(st.Format)}]; st.Established != n {
			t.Fatalf("%s in %s: standing counts %d matches against established opponents, its changes %d", st.Player, st.Format, st.Established, n)
		}
	}
}

// CheckRatingsRebuild checks that the live table of store equals a rebuild from its logs,
// figure for figure, and that every one of matches rated matches was rated once.
func CheckRatingsRebuild(t *testing.T, ctx context.Context, store RatingsStore, matches int) {
	t.Helper()
	proj := ratings.NewProjector(ratings.Config{Store: store, Logs: store})
	rebuilt, err := proj.Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rebuilt.Done) != matches {
		t.Fatalf("the logs hold %d rated ends, want %d", len(rebuilt.Done), matches)
	}
	standings, err := store.AllStandings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := store.AllChanges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	perMatch := map[string]int{}
	for _, c := range changes {
		perMatch[c.MatchID]++
	}
	if len(perMatch) != matches {
		t.Fatalf("%d matches have rating changes, want %d", len(perMatch), matches)
	}
	if len(changes) != len(rebuilt.Changes) {
		t.Fatalf("%d changes live, %d rebuilt", len(changes), len(rebuilt.Changes))
	}
	for i := range changes {
		if !sameChange(changes[i], rebuilt.Changes[i]) {
			t.Fatalf("change %d live %+v, rebuilt %+v", i, changes[i], rebuilt.Changes[i])
		}
	}
	if !slices.Equal(standings, rebuilt.Standings) {
		for i := range min(len(standings), len(rebuilt.Standings)) {
			if standings[i] != rebuilt.Standings[i] {
				t.Fatalf("standing %d live %+v, rebuilt %+v", i, standings[i], rebuilt.Standings[i])
			}
		}
		t.Fatalf("%d standings live, %d rebuilt", len(standings), len(rebuilt.Standings))
	}
	// Replacing the table with the rebuild changes nothing, and leaves the queue empty.
	if err := proj.Replace(ctx, rebuilt); err != nil {
		t.Fatal(err)
	}
	again, err := store.AllStandings(ctx)
	if err != nil || !slices.Equal(again, standings) {
		t.Fatalf("after --rebuild's write: %v, standings differ: %v", err, !slices.Equal(again, standings))
	}
	if n, err := proj.Drain(ctx); err != nil || n != 0 {
		t.Fatalf("the queue after a rebuild: %d matches, %v", n, err)
	}
}

// sameChange compares two changes: every field, the time as an instant.
func sameChange(a, b ratings.Change) bool {
	return a.EndedAt.Equal(b.EndedAt) && a.MatchID == b.MatchID && a.Player == b.Player && a.Format == b.Format &&
		a.Seat == b.Seat && a.Won == b.Won && a.Before == b.Before && a.After == b.After && a.AgainstEstablished == b.AgainstEstablished
}

// playOut plays match id to its end on svc: each seat in tokens (a seat token or a player
// key) plays its first legal move whenever it is to move.
func playOut(t *testing.T, ctx context.Context, svc *referee.MatchService, id string, tokens map[int]string) {
	t.Helper()
	for range 10_000 {
		v, err := svc.View(ctx, id, domain.Spectator())
		if err != nil {
			t.Fatal(err)
		}
		if v.Status == domain.StatusFinished {
			return
		}
		if v.Turn == nil {
			t.Fatalf("match %s is %s with no seat to move", id, v.Status)
		}
		seat := *v.Turn
		who, err := svc.Authenticate(ctx, id, tokens[seat])
		if err != nil {
			t.Fatalf("seat %d of %s: %v", seat, id, err)
		}
		_, _, moves, err := svc.LegalMoves(ctx, id, who)
		if err != nil || len(moves) == 0 {
			t.Fatalf("legal moves of seat %d of %s: %v %v", seat, id, moves, err)
		}
		if _, err := svc.Act(ctx, id, who, referee.ActRequest{Move: moves[0].Move()}); err != nil && !errors.Is(err, domain.ErrVersionConflict) {
			t.Fatalf("move in %s: %v", id, err)
		}
	}
	t.Fatalf("match %s did not end", id)
}
