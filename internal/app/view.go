//go:build cgo

package app

import (
	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/snapshot"
)

// What a frame shows: the camera on the framebuffer.

// pixelScale is how many framebuffer pixels a world pixel covers: for a
// game that asked for Setup.PixelArt(lines), the whole number that shows
// about lines world pixels on the framebuffer's height (2 for 360 in a
// 720-line window); 1 for the others.
func (s *session) pixelScale(fh int) float32 {
	lines := s.look.Lines
	if lines <= 0 {
		return 1
	}
	return float32(max(1, (fh+lines/2)/lines))
}

// camera applies the render-side zoom and keeps the view inside the
// world's bounds, when Setup gave some. (Setup's values are fixed once it
// returned, so the render thread reads them where they are.)
func (s *session) camera(c snapshot.Camera, fw, fh int) snapshot.Camera {
	c.Zoom *= s.pixelScale(fh)
	l := s.look
	if !l.HasBounds {
		return c
	}
	hw, hh := float32(fw)/c.Zoom/2, float32(fh)/c.Zoom/2
	c.X = clampCentre(c.X, l.Bounds[0], l.Bounds[2], hw)
	c.Y = clampCentre(c.Y, l.Bounds[1], l.Bounds[3], hh)
	return c
}

// viewRect is the part of the world cam shows in a fw x fh framebuffer.
func viewRect(cam snapshot.Camera, fw, fh int) gl.ViewRect {
	hw, hh := float32(fw)/cam.Zoom/2, float32(fh)/cam.Zoom/2
	return gl.ViewRect{MinX: cam.X - hw, MinY: cam.Y - hh, MaxX: cam.X + hw, MaxY: cam.Y + hh}
}

// A game marks empty cells as the tile layer does.
var _ [0]struct{} = [gl.NoTile - engine.NoTile]struct{}{}

func clampCentre(v, lo, hi, half float32) float32 {
	if hi-lo <= 2*half {
		return (lo + hi) / 2
	}
	return min(max(v, lo+half), hi-half)
}
