package gl

// Overlay is a screen-space rectangle a [SpriteBatch] draws over its
// sprites in the same draw call: the bench's probe, which a second draw
// after the sprites' would cost a software rasterizer several percent of
// a frame at a thousand sprites
// (docs/results/2026-11-27-sprites-ceiling7.md). X, Y is its top-left
// corner and W, H its size, in framebuffer pixels (y down), as a [Quad]'s.
// Frame selects the texture coordinates in the batch's frame table; its
// texels are drawn as they are, untinted, so the frame holds the colour.
type Overlay struct {
	X, Y, W, H float32
	Frame      uint16
}

// overlayQuad is an Overlay as the vertex shader takes it: its corners
// in clip space (left, top, right, bottom) and its frame.
type overlayQuad struct {
	on    bool
	rect  [4]float32
	frame uint16
}

// SetOverlay makes the batch's next Draw draw o over the sprites, as the
// last quad of the same call, on a framebuffer of fw x fh pixels (the
// current viewport), whatever the camera. Only that one draw does; a
// frame outside the table, or an empty framebuffer, draws no overlay. The
// caller sets it only when nothing else is drawn between the sprites
// and the swap, or the overlay would be under it. It does not allocate.
//
// GL thread only.
func (b *SpriteBatch) SetOverlay(o Overlay, fw, fh int) {
	if int(o.Frame) >= len(b.uvs) || fw <= 0 || fh <= 0 {
		b.overlay.on = false
		return
	}
	// The quad shader's mapping (shaders/quad.vert), so that the overlay
	// lights the pixels a Quad of the same rectangle lights.
	x := func(px float32) float32 { return 2*px/float32(fw) - 1 }
	y := func(px float32) float32 { return 1 - 2*px/float32(fh) }
	b.overlay = overlayQuad{on: true, frame: o.Frame, rect: [4]float32{x(o.X), y(o.Y), x(o.X + o.W), y(o.Y + o.H)}}
}
