//go:build unix

package sqlite

import "syscall"

// freeSpace is the space left to unprivileged writers on the file system holding dir; ok is
// false when it cannot be told.
func freeSpace(dir string) (free uint64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
