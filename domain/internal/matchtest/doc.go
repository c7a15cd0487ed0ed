// Package matchtest holds what the domain packages' tests share: the seat shapes, fixed seeds
// and clock, and matches played out through the pure domain. It imports nothing but the
// domain; a service over a store is domain/app/referee/refereetest's.
package matchtest
