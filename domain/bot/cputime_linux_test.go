package bot_test

import (
	"runtime"
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD, which the syscall package does not name.
const rusageThread = 1

// threadCPU is the CPU time the calling OS thread has used, and whether it could be read.
// The benchmarks lock their goroutine to its thread (lockThread) so that a decision's CPU time
// is the difference of two readings: on a machine shared with other work it shows what a
// decision costs, where wall-clock time also shows the waits for a core.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// lockThread keeps the benchmark's goroutine on one OS thread, for threadCPU.
func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
