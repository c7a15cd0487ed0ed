// Package memstore is an in-memory referee.EventStore for tests and for running without a
// database. It keeps the same contract as the SQLite store (both pass storetest.Run): the same
// hash chain over the same payload bytes, the same version checks and the same history order
// and cursors. Everything is copied on the way in and out, so a caller can never change stored
// state through a slice it passed or got back.
package memstore
