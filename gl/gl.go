package gl

import (
	"errors"
	"fmt"
	"image"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// SoftwareHint is appended to errors about a missing or too old OpenGL: a
// machine without a suitable GPU driver can still run tandem on Mesa's
// software rasterizer.
const SoftwareHint = "try Mesa's llvmpipe: LIBGL_ALWAYS_SOFTWARE=1, or run under xvfb-run"

// Init loads the OpenGL 4.1 core functions for the current context, checks
// that the context really is 4.1 or newer with the core profile, and sets
// the state every Draw relies on: premultiplied-alpha blending, no depth
// test. It returns an error naming the version found, with [SoftwareHint],
// when the context is too old.
//
// GL thread only, with a context current. Call it once per context.
func Init() error {
	if err := initGL(gl.Init); err != nil {
		return noGL41{err}
	}
	return nil
}

// InitWithProcAddr is [Init] for a context whose functions are found
// through getProcAddr (an EGL context's eglGetProcAddress) instead of the
// window system's usual loader (GLX, WGL, CGL).
//
// GL thread only, with a context current. Call it once per context.
func InitWithProcAddr(getProcAddr func(name string) unsafe.Pointer) error {
	if err := initGL(func() error { return gl.InitWithProcAddrFunc(getProcAddr) }); err != nil {
		return noGL41{err}
	}
	return nil
}

// heapOnce sets the C allocator's thresholds once per process (keepHeap).
var heapOnce sync.Once

// ErrNoGL41 is what Init's error is (errors.Is) when the context lacks
// OpenGL 4.1 core.
var ErrNoGL41 = errors.New("gl: no OpenGL 4.1 core")

// noGL41 is Init's error: its own text, and ErrNoGL41 to errors.Is.
type noGL41 struct{ error }

func (e noGL41) Is(target error) bool { return target == ErrNoGL41 }
func (e noGL41) Unwrap() error        { return e.error }

func initGL(load func() error) error {
	heapOnce.Do(keepHeap)
	if err := load(); err != nil {
		// go-gl names the first function the driver lacks.
		return fmt.Errorf("gl: load OpenGL 4.1 core: the driver lacks %v; %s", err, SoftwareHint)
	}
	version, renderer := Driver()
	major, minor, ok := parseVersion(version)
	if !ok || major < 4 || major == 4 && minor < 1 {
		return fmt.Errorf("gl: need OpenGL 4.1 core, the driver gives %q (renderer %q); %s",
			version, renderer, SoftwareHint)
	}
	var profile int32
	gl.GetIntegerv(gl.CONTEXT_PROFILE_MASK, &profile)
	check("glGetIntegerv")
	if profile&gl.CONTEXT_CORE_PROFILE_BIT == 0 {
		return fmt.Errorf("gl: need an OpenGL 4.1 core profile context, got %q (renderer %q) without it; %s",
			version, renderer, SoftwareHint)
	}
	gl.Enable(gl.BLEND)
	check("glEnable")
	gl.BlendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
	check("glBlendFunc")
	gl.Disable(gl.DEPTH_TEST)
	check("glDisable")
	return nil
}

// Driver returns the context's GL_VERSION and GL_RENDERER strings, e.g.
// "4.5 (Core Profile) Mesa 22.3.6" and "llvmpipe (LLVM 15.0.6, 256 bits)".
//
// GL thread only, after the functions are loaded ([Init]).
func Driver() (version, renderer string) {
	version = gl.GoStr(gl.GetString(gl.VERSION))
	check("glGetString")
	renderer = gl.GoStr(gl.GetString(gl.RENDERER))
	check("glGetString")
	return version, renderer
}

// parseVersion reads the leading "major.minor" of a GL_VERSION string.
func parseVersion(v string) (major, minor int, ok bool) {
	num, _, _ := strings.Cut(v, " ")
	maj, rest, found := strings.Cut(num, ".")
	if !found {
		return 0, 0, false
	}
	mnr, _, _ := strings.Cut(rest, ".")
	var err1, err2 error
	major, err1 = strconv.Atoi(maj)
	minor, err2 = strconv.Atoi(mnr)
	return major, minor, err1 == nil && err2 == nil
}

// Clear fills the whole framebuffer with a colour (components in [0, 1],
// premultiplied).
//
// GL thread only.
func Clear(r, g, b, a float32) {
	gl.ClearColor(r, g, b, a)
	check("glClearColor")
	gl.Clear(gl.COLOR_BUFFER_BIT)
	check("glClear")
}

// Viewport makes drawing cover the framebuffer's w x h pixels. Call it when
// the framebuffer size changes; a 0x0 size (a minimised window) is allowed.
//
// GL thread only.
func Viewport(w, h int) {
	gl.Viewport(0, 0, int32(w), int32(h))
	check("glViewport")
}

// ReadPixels reads the w x h rectangle of the current read framebuffer
// (the back buffer of the default one) whose lower-left corner is (x, y) in
// GL window coordinates (origin at the bottom-left, as glReadPixels). The
// rows are flipped so that the image is top-down: its pixel (0, 0) is the
// rectangle's top-left pixel. Reading the whole framebuffer is
// ReadPixels(0, 0, fbW, fbH). Pixels hold premultiplied alpha, like
// image.RGBA.
//
// It waits for the GPU and allocates: for screenshots and tests, not for
// every frame.
//
// GL thread only.
func ReadPixels(x, y, w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if w <= 0 || h <= 0 {
		return img
	}
	gl.PixelStorei(gl.PACK_ALIGNMENT, 4)
	check("glPixelStorei")
	gl.ReadPixels(int32(x), int32(y), int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&img.Pix[0]))
	check("glReadPixels")
	row := make([]byte, img.Stride)
	for top, bot := 0, h-1; top < bot; top, bot = top+1, bot-1 {
		a := img.Pix[top*img.Stride : (top+1)*img.Stride]
		b := img.Pix[bot*img.Stride : (bot+1)*img.Stride]
		copy(row, a)
		copy(a, b)
		copy(b, row)
	}
	return img
}

// ReadRowsInto reads the h rows of the current read framebuffer from GL
// row y (counted from the bottom) up, w pixels wide from column 0, into
// dst as RGBA, bottom row first, without allocating: for a check a run
// makes on its frames. dst must hold w*h*4 bytes. It waits for the GPU.
//
// GL thread only.
func ReadRowsInto(dst []byte, y, w, h int) {
	if w <= 0 || h <= 0 || len(dst) < w*h*4 {
		return
	}
	gl.PixelStorei(gl.PACK_ALIGNMENT, 4)
	check("glPixelStorei")
	gl.ReadPixels(0, int32(y), int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&dst[0]))
	check("glReadPixels")
}

// Finish waits until the GL has carried out every command issued so far:
// for benchmarks and tests that time or read the GPU's work.
//
// GL thread only.
func Finish() {
	gl.Finish()
	check("glFinish")
}

// maxInt returns the GL integer limit pname.
func maxInt(pname uint32) int {
	var v int32
	gl.GetIntegerv(pname, &v)
	check("glGetIntegerv")
	return int(v)
}
