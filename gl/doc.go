// Package gl is tandem's OpenGL 4.1 core layer: programs, textures, the
// sprite batch that interpolates snapshots on the GPU, tile layers, the HUD
// quad batch, and read-back for screenshots and tests.
//
// GL thread only: every function must be called on the thread that owns the
// current context (the main thread in the app), unless its comment says
// otherwise (pure functions such as [CameraMatrix] and [FormatSource] may be
// called from any goroutine). Nothing here locks a thread or makes a context
// current; the window package does that.
//
// Objects: every GL object is owned by one Go value with an explicit
// Delete method, to be called on the GL thread while the context is alive.
// There are no finalizers (they would run on the wrong thread). A
// constructor that fails deletes what it had created.
//
// Blending: [Init] enables premultiplied-alpha blending,
// glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA), which every Draw relies on.
// A sprite batch of untinted cut-out art (every atlas texel opaque or
// clear, sampled nearest) turns it off for its own draw, where it changes
// no pixel, and back on.
// Textures hold premultiplied alpha, as Go's image.RGBA does; tints
// (RGBA8, R in the low byte) are straight alpha and premultiplied in the
// shader.
//
// The C heap: [Init] raises glibc's trim and mmap thresholds for the
// whole process, once (512 MiB and 32 MiB), so that the driver's
// per-frame buffers stay mapped instead of faulting in fresh pages each
// frame under llvmpipe; the process keeps memory it frees in C. Other C
// libraries are left as they are.
//
// Debugging: built with -tags gldebug, every GL call is followed by a
// glGetError check that panics with the call's name; off by default, and
// free when off.
//
// Inside this package the identifier gl names the go-gl binding
// (github.com/go-gl/gl/v4.1-core/gl); tandem's own API is what the package
// exports.
package gl
