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
