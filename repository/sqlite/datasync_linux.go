package sqlite

import (
	"os"
	"syscall"
)

// datasync flushes f's data to disk, as SQLite does on Linux: fdatasync, which skips the
// metadata (times) that fsync would also journal.
func datasync(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			return err
		}
	}
}
