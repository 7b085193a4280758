//go:build linux && cgo

package gl

/*
#include <malloc.h>

static void tandem_tune_malloc(void) {
#if defined(M_TRIM_THRESHOLD) && defined(M_MMAP_THRESHOLD)
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}
*/
import "C"

// TuneAllocator keeps the C allocator from handing memory back to the
// kernel every frame.
//
// Why: Mesa's llvmpipe (the software rasterizer tandem runs on without a
// GPU) mallocs and frees megabytes of vertex data on every draw. With
// glibc's defaults, those blocks are mmapped and munmapped, or trimmed from
// the heap top, each frame, and the fresh pages fault in again on the next
// frame, costing a large share of the frame time. Raising M_TRIM_THRESHOLD
// to 512 MiB (the same as GLIBC_TUNABLES=glibc.malloc.trim_threshold=536870912)
// and M_MMAP_THRESHOLD to 32 MiB (glibc's maximum on 64-bit) keeps those
// blocks in the heap, whose pages stay mapped. The cost is up to 512 MiB of
// freed memory the process keeps instead of returning. It changes nothing
// for a hardware driver's frames beyond that.
//
// Measured with BenchmarkFrameLoop (50,000 16-pixel sprites, upload, draw,
// swap; llvmpipe, LP_NUM_THREADS=2, Xvfb 1280x720) with the sprite batch
// uploading by plain glBufferSubData: 157-170 ms and 5300 minor page faults
// per frame without, 99 ms and 0 faults with. Through GLIBC_TUNABLES,
// trim_threshold alone gave 114 ms and 0 faults; mmap_threshold alone made
// it worse, 197 ms and 6600 faults (setting the mmap threshold freezes the
// trim threshold at its 128 KiB default), hence both. The sprite batch now
// orphans its buffer, which avoids those faults by itself (100-101 ms per
// frame with or without), and at 5000 sprites no difference was
// measurable (10.5-12 ms either way); TuneAllocator stays as the guard for
// the driver's other per-frame allocations.
//
// Call it once, early, on any thread (it is process-wide); a no-op where
// the C library is not glibc.
func TuneAllocator() { C.tandem_tune_malloc() }
