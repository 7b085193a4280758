package app

import (
	"runtime"
	"sync"
)

// spareThreads is how many OS threads reserveThreads starts beyond
// GOMAXPROCS.
const spareThreads = 4

// reserveThreads starts GOMAXPROCS+spareThreads OS threads for the Go
// runtime now and leaves them idle, once a process. A locked goroutine
// (the sim's, the render thread's) that the runtime preempts hands its P
// to another thread and takes it back; when no idle thread is there, the
// runtime makes one, and making a thread allocates (runtime.allocm: the m,
// its g0, its profiling stacks). Without the reserve that happened at a
// random moment of some runs, inside the bench's measured window, as a few
// allocations and one more thread (docs/results/2026-11-28-scaling-auto.md).
// The runtime keeps idle threads for good, so the hand-offs later find one.
func reserveThreads() { reserveOnce.Do(func() { startThreads(runtime.GOMAXPROCS(0) + spareThreads) }) }

var reserveOnce sync.Once

// startThreads makes the runtime run n goroutines at once, each locked to
// a thread of its own and waiting, then lets them end unlocked: their
// threads stay, idle.
func startThreads(n int) {
	var locked, ended sync.WaitGroup
	release := make(chan struct{})
	locked.Add(n)
	ended.Add(n)
	for range n {
		go func() {
			defer ended.Done()
			runtime.LockOSThread()
			locked.Done()
			<-release
			runtime.UnlockOSThread() // ending locked would end the thread too
		}()
	}
	locked.Wait()
	close(release)
	ended.Wait()
}
