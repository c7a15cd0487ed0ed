// Package storeerr holds the errors of the stores that a client is told of: a store busy, full
// or out of reach, and a stored record that cannot be read. The stores (repository/*) raise
// them and the services (domain/app/*) raise and test them, so they live in a leaf of their
// own that both import: the stores import the services' packages for the ports they
// implement, so a service cannot import a store's package, and the game (domain) knows no
// store. It imports only domain, for the error type.
package storeerr

import "github.com/allfives/allfives/domain"

// The stores' codes (docs/api-errors.md, "Errors").
const (
	// CodeRecordCorrupt: a stored record that cannot be read or folded.
	CodeRecordCorrupt domain.Code = "RECORD_CORRUPT"
	// CodeStoreBusy: the store stayed locked by another writer beyond its busy timeout.
	CodeStoreBusy domain.Code = "STORE_BUSY"
	// CodeStoreFull: the store's disk or database is full.
	CodeStoreFull domain.Code = "STORE_FULL"
	// CodeStoreUnavailable: the database cannot be reached (down, restarting, unreachable).
	CodeStoreUnavailable domain.Code = "STORE_UNAVAILABLE"
)

// The stores' errors (docs/design.md, "Errors").
var (
	// ErrRecordCorrupt: a match's stored record cannot be read or folded; its audit says where.
	ErrRecordCorrupt = domain.NewError(CodeRecordCorrupt, "the match's stored record cannot be read or folded")
	// ErrStoreBusy: the store stayed locked by another writer beyond its busy timeout.
	ErrStoreBusy = domain.NewError(CodeStoreBusy, "the store is busy; try again shortly")
	// ErrStoreFull: the store cannot write because its disk or database is full.
	ErrStoreFull = domain.NewError(CodeStoreFull, "the store is full and cannot take writes")
	// ErrStoreUnavailable: the store cannot be reached, or its connection was lost mid-request.
	// A write that fails with it may or may not have committed: the caller must not report it
	// as done, and a retry with the same idempotency key learns which (docs/api-matches.md,
	// "Idempotency").
	ErrStoreUnavailable = domain.NewError(CodeStoreUnavailable, "the database cannot be reached; try again shortly")
)
