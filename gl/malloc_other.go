//go:build !linux || !cgo

package gl

// TuneAllocator does nothing on this platform; on Linux it keeps glibc
// from returning llvmpipe's per-frame buffers to the kernel.
//
// Any thread.
func TuneAllocator() {}
