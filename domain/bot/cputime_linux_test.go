package bot_test

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"time"
)

// threadCPU is the CPU time the calling OS thread has run, and whether it could be read: the
// first field of /proc/thread-self/schedstat, in nanoseconds (getrusage's figures move in
// scheduler ticks, too coarse for a decision). The benchmarks lock their goroutine to its
// thread (lockThread) so that a decision's CPU time is the difference of two readings: on a
// machine shared with other work it shows what a decision costs, where wall-clock time also
// shows the waits for a core.
func threadCPU() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/thread-self/schedstat")
	if err != nil {
		return 0, false
	}
	field, _, _ := bytes.Cut(b, []byte(" "))
	ns, err := strconv.ParseInt(string(field), 10, 64)
	return time.Duration(ns), err == nil
}

// lockThread keeps the benchmark's goroutine on one OS thread, for threadCPU.
func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
