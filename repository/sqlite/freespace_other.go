//go:build !unix

package sqlite

// freeSpace cannot be told on this platform; readiness relies on the write probe alone.
func freeSpace(string) (uint64, bool) { return 0, false }
