// Package storetest is the conformance suite for referee.EventStore. Every implementation
// (memstore, the SQLite store and the PostgreSQL store) runs Run against itself, so the service
// can rely on one contract whichever store it is given. It imports no store: each store's
// tests hand it a constructor.
package storetest
