// Package storetest is the conformance suite for referee.EventStore. Every implementation
// (memstore, the SQLite store) runs Run against itself, so the service can rely on one
// contract whichever store it is given. It uses the standard library only.
package storetest
