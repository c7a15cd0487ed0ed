// Package matchtest holds what the domain packages' tests share: the seat shapes, fixed seeds
// and clocks, matches played out through the pure domain, and a service over a store with a
// random computer player.
package matchtest
