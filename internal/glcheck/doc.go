// Package glcheck compiles a game's shaders at the Setup pass a run makes
// before it opens its window, with the same code and the same vertex
// shader the window's compile uses, so that a shader that does not
// compile fails the run there with the message the window would give. On
// Linux the context needs no window and no X server (EGL's surfaceless or
// device platform, libEGL opened at run time), so the error comes before
// a display is sought; on Windows it is a hidden window's (WGL makes a
// context only on a window). Where no context can be made (no libEGL, an
// EGL with neither platform, macOS, a Windows with no desktop, Wine,
// where a process that made it faulted at exit), nothing is
// checked here and the window's compile, before the first frame, is the
// only check; it stays the final one everywhere, since the window's
// driver may not be the one the check found.
package glcheck
