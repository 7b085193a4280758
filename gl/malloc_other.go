//go:build !linux || !cgo

package gl

// keepHeap is glibc's (malloc_linux.go); other C libraries keep theirs.
func keepHeap() {}
