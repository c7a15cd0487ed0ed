// Package postgres is the shared store, the PostgreSQL adapter for the referee's EventStore
// port: GORM over gorm.io/driver/postgres with pgx underneath, schema from the goose migrations
// in migrations/postgres (never AutoMigrate). Several server instances may use one database at
// once; each keeps only a cache, and the database decides every race (docs/operations.md,
// "Running several instances").
//
// Each match is an append-only event log chained by hashes (triggers refuse UPDATE, DELETE and
// TRUNCATE of events), with a read model row beside it for the history queries. An append locks
// its match's row (SELECT ... FOR UPDATE), checks the log's head against the expected version,
// and writes the events, the read model, the seat records a join or a leave replaces, the
// idempotency record and a NOTIFY in one transaction: appends to one match queue on that lock while appends to others run in parallel,
// and the notification is delivered to the listeners of every instance only if the append
// commits (Listen, the referee's Notifier port).
package postgres
