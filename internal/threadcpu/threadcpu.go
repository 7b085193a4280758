// Package threadcpu reads where a process's CPU time went: the time one
// thread (the render thread) spent on a CPU and runnable but waiting for
// one, and the CPU time of the whole process. A frame rate below what the
// render thread's own work allows shows here: a thread that waits for a
// CPU, or other threads that take the core beside it (on two cores that
// slow each other, or beside the X server that copies each frame).
//
// Linux's /proc/thread-self/schedstat and getrusage; elsewhere [Open]
// fails and the figures are null. [Process] alone, getrusage's, reads on
// every unix.
//
// Threads: a Reader is read from one goroutine at a time, from any
// thread. Reading allocates nothing. A nil Reader (Open failed) reads
// nothing.
package threadcpu

// Times is a reading, in nanoseconds since the thread and the process
// began: the thread's time on a CPU (Run) and runnable on a run queue
// (Wait), and the process's user and system CPU time, all its threads'.
type Times struct {
	Run, Wait, Process int64
}

// Figures returns, over the window from a to b, frames frames and d ns
// long: the thread's CPU time a frame and its wait for a CPU a frame, in
// ms, and the CPU time of the process's other threads in percent of one
// CPU. ok is false without two readings, frames or time.
func Figures(a, b Times, frames int, d int64) (cpuMs, waitMs, othersPct float64, ok bool) {
	if a.Process == 0 || b.Process == 0 || frames < 1 || d <= 0 || b.Run < a.Run || b.Wait < a.Wait {
		return 0, 0, 0, false
	}
	run := b.Run - a.Run
	others := max(0, b.Process-a.Process-run)
	return float64(run) / 1e6 / float64(frames), float64(b.Wait-a.Wait) / 1e6 / float64(frames),
		100 * float64(others) / float64(d), true
}

// parseSchedstat reads the first two fields of a schedstat line ("run
// wait slices\n", in ns).
func parseSchedstat(b []byte) (run, wait int64, ok bool) {
	var v [2]int64
	i := 0
	for k := range v {
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			v[k] = v[k]*10 + int64(b[i]-'0')
			i++
		}
		if i == start || i >= len(b) || b[i] != ' ' {
			return 0, 0, false
		}
		i++
	}
	return v[0], v[1], true
}
