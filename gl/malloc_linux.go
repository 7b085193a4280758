//go:build linux && cgo

package gl

/*
#include <malloc.h>

static void tandem_keep_heap(void) {
#if defined(M_TRIM_THRESHOLD) && defined(M_MMAP_THRESHOLD)
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}
*/
import "C"

// keepHeap keeps the C allocator from handing freed memory back to the
// kernel: glibc trims the top of its heap when a free leaves more than
// M_TRIM_THRESHOLD unused there, and maps blocks above M_MMAP_THRESHOLD on
// their own. llvmpipe mallocs and frees its buffers on every frame, and
// whether those frees trim depends on what else happens to lie above them
// on the heap: with the probe drawn in the sprites' call, one allocation
// fewer a frame, a 5,000-sprite frame took about 350 page faults on fresh
// pages and ran 9% slower, for nothing the frame did differently
// (docs/results/2026-11-27-sprites-ceiling7.md). Setting the trim
// threshold turns off glibc's own tuning of both thresholds, so both are
// set: 512 MiB and 32 MiB, glibc's largest on 64-bit. The cost is freed
// memory the process keeps. Process-wide; a no-op where the C library is
// not glibc.
func keepHeap() { C.tandem_keep_heap() }
