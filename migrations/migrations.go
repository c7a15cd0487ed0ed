// Package migrations holds the versioned SQL schema of the SQLite store, in goose's format
// (-- +goose Up / -- +goose Down), embedded so the binary needs no files beside it. The
// runner lives in package repository/sqlite; nothing here ever uses GORM's AutoMigrate, so the schema
// is exactly what these files say and every change is a new numbered file.
package migrations

import "embed"

// FS holds every migration file. Files are applied in the order of their numeric prefix;
// a file, once released, is never edited: a change is a new file.
//
//go:embed *.sql
var FS embed.FS
