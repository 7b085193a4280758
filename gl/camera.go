package gl

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/tandem-engine/tandem/snapshot"
)

// CameraMatrix returns the view-projection matrix that draws the world
// through cam on a framebuffer of fbW x fbH pixels: world point (cam.X,
// cam.Y) lands at the framebuffer's centre, y grows down the screen, and one
// world pixel spans cam.Zoom framebuffer pixels (so on a HiDPI screen, fold
// the content scale into Zoom). A Zoom <= 0, as in the zero Camera, is
// taken as 1.
//
// Exactly: world (x, y) lands at framebuffer pixel coordinates
// ((x-cam.X)*Zoom + fbW/2, (y-cam.Y)*Zoom + fbH/2), measured from the
// top-left corner, up to float32 rounding.
//
// Any goroutine (pure).
func CameraMatrix(cam snapshot.Camera, fbW, fbH int) mgl32.Mat4 {
	zoom := cam.Zoom
	if zoom <= 0 {
		zoom = 1
	}
	hw := float32(fbW) / (2 * zoom)
	hh := float32(fbH) / (2 * zoom)
	// Bottom is the larger y: the world's y axis points down the screen.
	return mgl32.Ortho2D(cam.X-hw, cam.X+hw, cam.Y+hh, cam.Y-hh)
}
