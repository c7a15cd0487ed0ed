// Package migrations holds the versioned SQL schema of each store, in goose's format
// (-- +goose Up / -- +goose Down), embedded so the binary needs no files beside it: sqlite/ for
// the embedded store (repository/sqlite), postgres/ for the shared one (repository/postgres).
// Both dialects keep the same tables, keys and guarantees (docs/design.md, "Events") and the
// same numbering: a change to the schema is a new numbered file in each folder. Nothing here
// ever uses GORM's AutoMigrate, so the schema is exactly what these files say.
package migrations

import (
	"embed"
	"io/fs"
	"strconv"
	"strings"
)

//go:embed sqlite/*.sql postgres/*.sql
var files embed.FS

// SQLite holds the SQLite migrations; Postgres the PostgreSQL ones. Files are applied in the
// order of their numeric prefix; a file, once released, is never edited: a change is a new file.
var (
	SQLite   = sub("sqlite")
	Postgres = sub("postgres")
)

func sub(dir string) fs.FS {
	f, err := fs.Sub(files, dir)
	if err != nil {
		panic(err) // unreachable: dir is one of the embedded folders
	}
	return f
}

// Files is every migration in the order goose applies them, the same names in both dialects:
// the one list the schema tests compare with. A new migration is a new line here and a file in
// each folder (TestBothDialectsHoldFiles).
var Files = []string{
	"00001_init.sql",
	"00002_seats_and_clock.sql",
	"00003_seat_keys_and_seeded.sql",
	"00004_reviews.sql",
	"00005_players.sql",
	"00006_rematch.sql",
	"00007_tickets.sql",
	"00008_ratings.sql",
	"00009_player_match_status.sql",
	"00010_cancelled.sql",
	"00011_server_keys.sql",
	"00012_standing_and_skeletons.sql",
	"00013_seeks.sql",
	"00014_tournaments.sql",
	"00015_bot_levels.sql",
	"00016_sealed_ratings.sql",
	"00017_puzzles.sql",
	"00018_programs.sql",
}

// LatestVersion is the version of the last of Files, which a store's schema reports once every
// migration is applied.
func LatestVersion() int64 {
	last := Files[len(Files)-1]
	v, err := strconv.ParseInt(last[:strings.IndexByte(last, '_')], 10, 64)
	if err != nil {
		panic(err) // unreachable: TestBothDialectsHoldFiles reads every name
	}
	return v
}
