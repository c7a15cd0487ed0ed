package storetest

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"gorm.io/gorm"

	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/app/players"
	"github.com/allfives/allfives/domain/app/ratings"
	"github.com/allfives/allfives/domain/app/referee"
	"github.com/allfives/allfives/domain/bot"
	"github.com/allfives/allfives/domain/names"
	"github.com/allfives/allfives/migrations"
)

// StandingMigration is what RunStandingMigration needs of one store's database: the store,
// going down to a version and up again, the database (a writer, for SQLite's store) and the
// store opened again on the same database (the old one closed).
type StandingMigration struct {
	Store  RatingsStore
	Down   func(t *testing.T, version int64)
	Up     func(t *testing.T)
	DB     func() *gorm.DB
	Reopen func(t *testing.T) RatingsStore
}

// exec runs a statement on m's database.
func (m StandingMigration) exec(t *testing.T, sql string, args ...any) {
	t.Helper()
	if err := m.DB().Exec(sql, args...).Error; err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// count runs a count on m's database.
func (m StandingMigration) count(t *testing.T, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := m.DB().Raw(sql, args...).Scan(&n).Error; err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// BeforeStanding is the version of the migration before 00012_standing_and_skeletons.sql.
func BeforeStanding(t *testing.T) int64 {
	for i, f := range migrations.Files {
		if strings.HasPrefix(f, "00012_") && i > 0 {
			v, err := strconv.ParseInt(migrations.Files[i-1][:5], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	t.Fatal("no migration 00012")
	return 0
}

// RunStandingMigration checks migration 00012 on a database that has what a server before it
// left: rated matches already rated by the rules before standing, and two players whose names
// are now one (Bob, and Вob with a Cyrillic В). After the Up the database opens, both players
// are kept (the newer without a skeleton), no new look-alike of either, or of a bot, can be
// taken, and the ratings are rated again from the logs, standing counted, equal to a rebuild.
func RunStandingMigration(t *testing.T, m StandingMigration) {
	ctx := context.Background()
	svc := referee.NewMatchService(referee.ServiceConfig{Store: m.Store, Bots: fastBots(3)})
	const rated = 6
	for range rated {
		seats := []domain.PlayerInfo{{Name: "R", Kind: domain.Bot, Bot: bot.NameRandom}, {Name: "G", Kind: domain.Bot, Bot: bot.NameGreedy}}
		if _, err := svc.Create(ctx, referee.CreateRequest{Players: seats, Target: 5, Rated: true}); err != nil {
			t.Fatal(err)
		}
	}
	svc.Close()

	m.Down(t, BeforeStanding(t))
	// What a server of the version before wrote: the players, and the ratings it had rated.
	bob, vob := NewPlayer(t, "Bob", Base), NewPlayer(t, "Вob", Base.Add(1))
	for _, p := range []struct {
		id, name, key string
		at            int64
	}{{bob.ID, bob.Name, bob.NameKey, 0}, {vob.ID, vob.Name, vob.NameKey, 1}} {
		m.exec(t, `INSERT INTO players (id, name, name_key, key_hash, created_at, key_rotated_at) VALUES (?, ?, ?, ?, ?, ?)`,
			p.id, p.name, p.key, randomHash(), "2026-01-01T00:00:00.00000000"+strconv.FormatInt(p.at, 10)+"Z", "2026-01-01T00:00:00.000000000Z")
	}
	m.exec(t, `INSERT INTO ratings (player_id, format, mu, sigma, rating, matches, wins, ranked) VALUES ('bot-random', '2p', 1, 1, -2, 99, 0, ?)`, true)
	m.exec(t, `DELETE FROM rating_queue`)

	m.Up(t)
	s := m.Reopen(t) // opens again: the backfill finds Вob once more, and leaves it
	if n := m.count(t, `SELECT count(*) FROM player_skeletons WHERE player_id = ? AND skeleton = 'bob'`, bob.ID); n != 1 {
		t.Fatal("Bob has no skeleton")
	}
	if n := m.count(t, `SELECT count(*) FROM player_skeletons WHERE player_id = ? AND skeleton IS NULL`, vob.ID); n != 1 {
		t.Fatal("Вob, whose name looks like the older Bob's, was given a skeleton")
	}
	for _, b := range bot.AllNames() {
		k, _ := names.Skeleton(referee.BotPlayer(b))
		if n := m.count(t, `SELECT count(*) FROM player_skeletons WHERE player_id = ? AND skeleton = ?`, referee.BotPlayer(b), k); n != 1 {
			t.Fatalf("%s's skeleton in the migration is not names.Skeleton's %q", referee.BotPlayer(b), k)
		}
	}
	if n := m.count(t, `SELECT count(*) FROM player_skeletons`); n != 2+len(bot.AllNames()) {
		t.Fatalf("%d players in player_skeletons, want every one", n)
	}
	for _, name := range []string{"ВОВ", "Βob", "bot-expеrt", "BOT-RANDOM"} {
		if err := s.CreatePlayer(ctx, NewPlayer(t, name, Base)); !errors.Is(err, players.ErrNameTaken) {
			t.Fatalf("create %q after the migration: %v, want NAME_TAKEN", name, err)
		}
	}
	for _, id := range []string{bob.ID, vob.ID} {
		if _, err := s.Player(ctx, id); err != nil {
			t.Fatalf("player %s after the migration: %v", id, err)
		}
	}
	// The ratings are started again from the logs.
	if n := m.count(t, `SELECT count(*) FROM ratings`); n != 0 {
		t.Fatalf("%d ratings of the rules before are left", n)
	}
	if n := m.count(t, `SELECT count(*) FROM rating_queue`); n != rated {
		t.Fatalf("%d rated matches queued again, want %d", n, rated)
	}
	if _, err := ratings.NewProjector(ratings.Config{Store: s, Logs: s}).Drain(ctx); err != nil {
		t.Fatal(err)
	}
	CheckRatingsRebuild(t, ctx, s, rated)
	if n := m.count(t, `SELECT count(*) FROM ratings WHERE established_matches = ?`, rated); n != 2 {
		t.Fatalf("%d bots count %d matches against established opponents, want both", n, rated)
	}
}
