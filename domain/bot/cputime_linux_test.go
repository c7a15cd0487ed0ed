package bot_test

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID, which the syscall package does not name.
const clockThreadCPUTime = 3

// threadCPU is the CPU time the calling OS thread has run, and whether it could be read
// (clock_gettime of the thread's CPU clock, exact to the nanosecond; getrusage and
// /proc/thread-self/schedstat move in scheduler ticks, too coarse for a decision). The
// benchmarks lock their goroutine to its thread (lockThread) so that a decision's CPU time is
// the difference of two readings: on a machine shared with other work it shows what a
// decision costs, where wall-clock time also shows the waits for a core.
func threadCPU() (time.Duration, bool) {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// lockThread keeps the benchmark's goroutine on one OS thread, for threadCPU.
func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
