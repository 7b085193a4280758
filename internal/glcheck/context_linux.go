//go:build cgo && linux

package glcheck

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

// EGL's types and the constants used here, from the Khronos headers, so
// that the build needs no EGL headers and the binary no libEGL: it is
// opened at run time, and a machine without it checks at the window.
typedef void *EGLDisplay, *EGLContext, *EGLConfig, *EGLDeviceEXT;
typedef int EGLint;
typedef unsigned int EGLBoolean, EGLenum;

#define EGL_NONE 0x3038
#define EGL_OPENGL_API 0x30A2
#define EGL_EXTENSIONS 0x3055
#define EGL_CONTEXT_MAJOR_VERSION 0x3098
#define EGL_CONTEXT_MINOR_VERSION 0x30FB
#define EGL_CONTEXT_OPENGL_PROFILE_MASK 0x30FD
#define EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT 0x1
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#define EGL_PLATFORM_DEVICE_EXT 0x313F

typedef void *(*getProcAddress)(const char *);
typedef EGLDisplay (*getPlatformDisplay)(EGLenum, void *, const EGLint *);
typedef EGLBoolean (*queryDevices)(EGLint, EGLDeviceEXT *, EGLint *);
typedef EGLBoolean (*initialize)(EGLDisplay, EGLint *, EGLint *);
typedef EGLBoolean (*terminate)(EGLDisplay);
typedef EGLBoolean (*bindAPI)(EGLenum);
typedef const char *(*queryString)(EGLDisplay, EGLint);
typedef EGLContext (*createContext)(EGLDisplay, EGLConfig, EGLContext, const EGLint *);
typedef EGLBoolean (*destroyContext)(EGLDisplay, EGLContext);
typedef EGLBoolean (*makeCurrent)(EGLDisplay, void *, void *, EGLContext);
typedef EGLBoolean (*releaseThread)(void);

typedef struct {
	void *lib;
	getProcAddress gpa;
	EGLDisplay dpy;
	EGLContext ctx;
} eglctx;

static int hasExt(const char *list, const char *ext) {
	size_t n = strlen(ext);
	for (const char *p = list; p && (p = strstr(p, ext)) != NULL; p += n) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) {
			return 1;
		}
	}
	return 0;
}

// eglStart makes an OpenGL 4.1 core context current on this thread with
// no surface: on Mesa's surfaceless platform, else on the first EGL
// device (NVIDIA's driver, Mesa's software device). It returns a static
// message on failure, with nothing left open.
static const char *eglStart(eglctx *c) {
	memset(c, 0, sizeof *c);
	c->lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!c->lib) {
		return "no libEGL.so.1";
	}
	c->gpa = (getProcAddress)dlsym(c->lib, "eglGetProcAddress");
	queryString qs = (queryString)dlsym(c->lib, "eglQueryString");
	initialize init = (initialize)dlsym(c->lib, "eglInitialize");
	terminate term = (terminate)dlsym(c->lib, "eglTerminate");
	bindAPI bind = (bindAPI)dlsym(c->lib, "eglBindAPI");
	createContext create = (createContext)dlsym(c->lib, "eglCreateContext");
	makeCurrent current = (makeCurrent)dlsym(c->lib, "eglMakeCurrent");
	if (!c->gpa || !qs || !init || !term || !bind || !create || !current) {
		dlclose(c->lib);
		return "libEGL lacks EGL 1.5's functions";
	}
	const char *client = qs(NULL, EGL_EXTENSIONS);
	getPlatformDisplay gpd = (getPlatformDisplay)c->gpa("eglGetPlatformDisplayEXT");
	if (!gpd || !hasExt(client, "EGL_EXT_platform_base")) {
		dlclose(c->lib);
		return "EGL has no platform displays";
	}
	EGLint major, minor;
	if (hasExt(client, "EGL_MESA_platform_surfaceless")) {
		c->dpy = gpd(EGL_PLATFORM_SURFACELESS_MESA, NULL, NULL);
		if (c->dpy && !init(c->dpy, &major, &minor)) {
			c->dpy = NULL;
		}
	}
	if (!c->dpy && hasExt(client, "EGL_EXT_platform_device")) {
		queryDevices qd = (queryDevices)c->gpa("eglQueryDevicesEXT");
		EGLDeviceEXT dev;
		EGLint n = 0;
		if (qd && qd(1, &dev, &n) && n > 0) {
			c->dpy = gpd(EGL_PLATFORM_DEVICE_EXT, dev, NULL);
			if (c->dpy && !init(c->dpy, &major, &minor)) {
				c->dpy = NULL;
			}
		}
	}
	if (!c->dpy) {
		dlclose(c->lib);
		return "EGL has neither a surfaceless display nor a device";
	}
	static const EGLint attrs[] = {
		EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 1,
		EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
	};
	if (!hasExt(qs(c->dpy, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context") ||
		!bind(EGL_OPENGL_API) ||
		!(c->ctx = create(c->dpy, NULL, NULL, attrs))) {
		term(c->dpy);
		dlclose(c->lib);
		return "EGL gives no OpenGL 4.1 core context without a surface";
	}
	if (!current(c->dpy, NULL, NULL, c->ctx)) {
		destroyContext destroy = (destroyContext)dlsym(c->lib, "eglDestroyContext");
		if (destroy) {
			destroy(c->dpy, c->ctx);
		}
		term(c->dpy);
		dlclose(c->lib);
		return "EGL cannot make its context current without a surface";
	}
	return NULL;
}

static void *eglProc(eglctx *c, const char *name) { return c->gpa(name); }

// eglStop leaves no context current and frees what eglStart made but
// the library, which stays loaded: a driver's library unloaded while its
// threads or exit handlers remain is a crash waiting, and the window's GL
// may load it again anyway.
static void eglStop(eglctx *c) {
	makeCurrent current = (makeCurrent)dlsym(c->lib, "eglMakeCurrent");
	destroyContext destroy = (destroyContext)dlsym(c->lib, "eglDestroyContext");
	terminate term = (terminate)dlsym(c->lib, "eglTerminate");
	releaseThread release = (releaseThread)dlsym(c->lib, "eglReleaseThread");
	current(c->dpy, NULL, NULL, NULL);
	if (destroy) {
		destroy(c->dpy, c->ctx);
	}
	term(c->dpy);
	if (release) {
		release();
	}
}
*/
import "C"

import (
	"errors"
	"unsafe"

	"github.com/tandem-engine/tandem/gl"
)

// context is an EGL context with no surface, current on the thread that
// made it until release.
type context struct{ c C.eglctx }

func newContext() (*context, error) {
	c := new(context)
	if msg := C.eglStart(&c.c); msg != nil {
		return nil, errors.New("glcheck: " + C.GoString(msg))
	}
	return c, nil
}

// load loads the GL functions through EGL.
func (c *context) load() error { return gl.InitWithProcAddr(c.procAddr) }

// procAddr finds a GL function, as go-gl's loader asks.
func (c *context) procAddr(name string) unsafe.Pointer {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.eglProc(&c.c, cs)
}

func (c *context) release() { C.eglStop(&c.c) }
