package threadcpu

import (
	"io"
	"os"
)

// Reader reads one thread's schedstat and the process's rusage.
type Reader struct {
	f   *os.File
	buf [128]byte
}

// Open returns a Reader of the calling thread (call it on the thread to
// be read, locked to it). It allocates.
func Open() (*Reader, error) {
	f, err := os.Open("/proc/thread-self/schedstat")
	if err != nil {
		return nil, err
	}
	return &Reader{f: f}, nil
}

// Read returns the thread's and the process's times now; false when
// either cannot be read, or r is nil.
func (r *Reader) Read() (Times, bool) {
	if r == nil {
		return Times{}, false
	}
	n, err := r.f.ReadAt(r.buf[:], 0)
	if n == 0 || err != nil && err != io.EOF {
		return Times{}, false
	}
	run, wait, ok := parseSchedstat(r.buf[:n])
	if !ok {
		return Times{}, false
	}
	proc, ok := Process()
	if !ok {
		return Times{}, false
	}
	return Times{Run: run, Wait: wait, Process: proc}, true
}

// Close closes the thread's file; a nil r has none.
func (r *Reader) Close() {
	if r != nil {
		r.f.Close()
	}
}
