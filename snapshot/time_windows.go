package snapshot

import (
	"syscall"
	"unsafe"
)

// On Windows, Go's monotonic clock is the kernel's interrupt time, which
// advances once per clock interrupt: every 0.5 to 15.6 ms, as the system's
// timer resolution is set. Under Wine it was seen not to move across a
// millisecond of work. Frame and tick stamps that coarse would make the
// interpolation step and every latency figure a multiple of the tick, so
// the engine's time base there is QueryPerformanceCounter, Windows' clock
// for intervals (sub-microsecond, monotonic, the one GLFW's own timer
// reads). Durations handed to Go's timers stay comparable: both clocks
// count real time since boot, and only differences are used.
var (
	qpc     = syscall.NewLazyDLL("kernel32.dll").NewProc("QueryPerformanceCounter")
	qpcFreq int64 // counts a second, fixed at boot
	base    int64 // the count when the process started
)

func init() {
	f := syscall.NewLazyDLL("kernel32.dll").NewProc("QueryPerformanceFrequency")
	if ok, _, err := f.Call(uintptr(unsafe.Pointer(&qpcFreq))); ok == 0 || qpcFreq <= 0 {
		// Every Windows since XP has a performance counter.
		panic("snapshot: QueryPerformanceFrequency failed: " + err.Error())
	}
	base = counter()
}

// counter reads the performance counter.
func counter() int64 {
	var c int64
	syscall.SyscallN(qpc.Addr(), uintptr(unsafe.Pointer(&c)))
	return c
}

// Now returns the monotonic time in nanoseconds since the process started.
// It is the one time base shared by the sim thread, input stamping and the
// renderer. It is safe to call from any goroutine and does not allocate.
func Now() int64 {
	d := counter() - base
	// Whole seconds and the rest apart: d*1e9 overflows after 15 minutes
	// at a 10 MHz counter.
	return d/qpcFreq*1e9 + d%qpcFreq*1e9/qpcFreq
}
