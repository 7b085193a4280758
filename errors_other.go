//go:build !windows

package tandem

// noOpenGLHint is ErrNoOpenGL's fix where Mesa is at hand.
const noOpenGLHint = "try Mesa's llvmpipe (LIBGL_ALWAYS_SOFTWARE=1), or run under xvfb-run"
