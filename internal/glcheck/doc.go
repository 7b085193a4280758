// Package glcheck compiles a game's shaders before a display is sought:
// in an OpenGL 4.1 core context that needs no window and no X server
// (EGL's surfaceless or device platform, on Linux), with the same code
// and the same vertex shader the window's compile uses, so that a shader
// that does not compile fails the run at its Setup pass with the message
// the window would give. Where no such context can be made (no libEGL, a
// driver with neither platform, Windows, macOS), nothing is checked here
// and the window's compile, before the first frame, is the only check;
// it stays the final one everywhere, since the window's driver may not be
// the one EGL found.
package glcheck
