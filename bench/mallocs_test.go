package bench

import "runtime"

// runtimeMallocs reads the process's total mallocs: tests assert zero on
// the total, not on testing.AllocsPerRun's rounded-down average.
type runtimeMallocs struct{ n uint64 }

func (m *runtimeMallocs) read() {
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	m.n = s.Mallocs
}
