//go:build !linux

package bot_test

import "time"

// threadCPU reads nothing outside Linux: the benchmarks then report wall-clock time only.
func threadCPU() (time.Duration, bool) { return 0, false }

// lockThread does nothing where threadCPU reads nothing.
func lockThread() func() { return func() {} }
