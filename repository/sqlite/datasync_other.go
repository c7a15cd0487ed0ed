//go:build !linux

package sqlite

import "os"

// datasync flushes f to disk (fsync where the system has no fdatasync).
func datasync(f *os.File) error { return f.Sync() }
