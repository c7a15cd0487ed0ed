// Package sqlite is the embedded store, the SQLite adapter for the referee's EventStore port:
// GORM over github.com/glebarez/sqlite (pure Go, no cgo), schema from the goose migrations in
// package migrations (never AutoMigrate).
//
// Each match is an append-only event log chained by hashes, with a read model row beside it for
// the history queries; an append, its read-model update and its idempotency record commit in
// one transaction. Writes go through one connection (SQLite admits one writer at a time, so a
// pool of writers would only queue on the file lock and risk SQLITE_BUSY); reads use a separate
// pool that WAL lets run beside the writer.
package sqlite
