//go:build !linux

package bot

import "time"

// processCPU has no process CPU clock to read off Linux: BenchmarkScreenChoose reports
// wall-clock time instead.
func processCPU() (time.Duration, bool) { return 0, false }
