package sqlite

import (
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/allfives/allfives/migrations"
)

// Migrations is every migration of this dialect in the order goose applies them: the one
// list the tests of the schema compare with. A new migration is a new line here.
var Migrations = []string{
	"00001_init.sql",
	"00002_seats_and_clock.sql",
	"00003_seat_keys_and_seeded.sql",
	"00004_reviews.sql",
	"00005_players.sql",
	"00006_rematch.sql",
}

// LatestVersion is the version of the last of Migrations, which SchemaVersion reports once
// every migration is applied.
func LatestVersion() int64 {
	last := Migrations[len(Migrations)-1]
	v, err := strconv.ParseInt(last[:strings.IndexByte(last, '_')], 10, 64)
	if err != nil {
		panic(err)
	}
	return v
}

// TestMigrationsListed: Migrations names exactly the files embedded in package migrations,
// so that a migration added without its line here (or the reverse) fails at once.
func TestMigrationsListed(t *testing.T) {
	files, err := fs.Glob(migrations.SQLite, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	if !slices.Equal(files, Migrations) {
		t.Fatalf("embedded migrations %v, the tests list %v", files, Migrations)
	}
}
