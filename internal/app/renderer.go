//go:build cgo

package app

import (
	"math"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/snapshot"
	"github.com/tandem-engine/tandem/window"
)

// renderer is the GL side of a run: the game's art in one atlas, the
// sprite batch, the tile layer, the quads of the HUD, the game's text
// and the probe. Render thread only (the thread with the GL context).
type renderer struct {
	art   *art
	atlas *gl.Texture
	batch *gl.SpriteBatch
	tiles *gl.TileLayer
	quads *gl.QuadBatch
	hud   *hud
	// drawing draws the game's shapes, text and shaders (drawing.go).
	drawing *drawing
	// up is the pair in the sprite batch, upAt when each was published.
	up    [2]*snapshot.Snapshot
	upAt  [2]int64
	probe [1]gl.Quad
}

// newRenderer packs l's art and makes the GL objects, with room for
// slots sprites and some to grow into. On an error, what it made is
// deleted.
func newRenderer(l *engine.Look, slots int) (r *renderer, err error) {
	r = &renderer{}
	if r.art, err = buildArt(l); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			r.delete()
			r = nil
		}
	}()
	if r.atlas, err = gl.NewTexture(r.art.atlas.Image, true); err != nil {
		return r, err
	}
	if r.batch, err = gl.NewSpriteBatch(slots+256, r.atlas, r.art.frames); err != nil {
		return r, err
	}
	t := l.Tiles
	if r.tiles, err = gl.NewTileLayer(gl.TileGrid{W: t.W, H: t.H, Size: physics.TileSize, Frames: t.Frames}, r.atlas, r.art.frames); err != nil {
		return r, err
	}
	if r.quads, err = gl.NewQuadBatch(4096, r.atlas, r.art.frames); err != nil {
		return r, err
	}
	r.hud = newHUD(r.art)
	if r.drawing, err = newDrawing(l, r.batch); err != nil {
		return r, err
	}
	return r, nil
}

// delete deletes the GL objects; r may be nil. After the display went
// away it makes no GL call: the objects went with the context, which in
// the threaded loop may still be current on a render thread left stuck in
// a swap.
func (r *renderer) delete() {
	if r == nil || window.DisplayLost() {
		return
	}
	r.drawing.delete()
	r.drawing = nil
	if r.quads != nil {
		r.quads.Delete()
	}
	if r.tiles != nil {
		r.tiles.Delete()
	}
	if r.batch != nil {
		r.batch.Delete()
	}
	if r.atlas != nil {
		r.atlas.Delete()
	}
	r.quads, r.tiles, r.batch, r.atlas = nil, nil, nil, nil
}

// upload sends the pair (p, c) to the sprite batch unless it is the pair
// already there. Ring buffers are reused, so a pair is known by its
// buffers and their publish times.
func (r *renderer) upload(p, c *snapshot.Snapshot) {
	if p == r.up[0] && c == r.up[1] && p.Published == r.upAt[0] && c.Published == r.upAt[1] {
		return
	}
	r.batch.Upload(p, c)
	r.drawing.upload(p, c)
	r.up, r.upAt = [2]*snapshot.Snapshot{p, c}, [2]int64{p.Published, c.Published}
}

// gameText draws a snapshot's game text, when it has some.
func (r *renderer) gameText(t *snapshot.Text, fw, fh int) {
	if len(t.Lines) > 0 {
		r.quads.Draw(r.hud.gameText(t), fw, fh)
	}
}

// probeColor is the probe's tint: opaque magenta, #FF00FF.
const probeColor = 0xFFFF00FF

// probeHeldColor is the probe's tint while the bench's button is down in
// the state the frame blends toward: opaque cyan, #00FFFF.
const probeHeldColor = 0xFFFFFF00

// drawProbe draws the bench's probe, last, over the HUD, in a draw of its
// own: probeQuad's square, untinted, as the sprite batch draws it.
func (r *renderer) drawProbe(x float64, held bool, fw, fh int) {
	o := r.probeQuad(x, held, fw)
	r.probe[0] = gl.Quad{X: o.X, Y: o.Y, W: o.W, H: o.H, Frame: o.Frame, Tint: snapshot.White}
	r.quads.Draw(r.probe[:], fw, fh)
}

// probeQuad is the bench's probe as the sprite batch draws it over the
// sprites: an 8x8 px square whose top edge is on framebuffer row 4, at x
// (unwrapped, in framebuffer px) wrapped at the right edge, of the
// probe's colour (held: the button is down in the state the frame blends
// toward).
func (r *renderer) probeQuad(x float64, held bool, fw int) gl.Overlay {
	frame := r.art.probe[0]
	if held {
		frame = r.art.probe[1]
	}
	return gl.Overlay{X: float32(probeColumn(x, fw)), Y: 4, W: 8, H: 8, Frame: frame}
}

// probeColumn is the leftmost pixel column of a probe at x in a
// framebuffer fw px wide: x wrapped, rounded as the meter rounds it
// (bench.PixelX). The square is drawn from that whole column: an edge
// left at a fraction could fall within the rasterizer's sub-pixel
// precision (1/256 px) of a pixel's centre, and which column it lit would
// be chance.
func probeColumn(x float64, fw int) float64 {
	return bench.PixelX(math.Mod(x, float64(fw)))
}

// probeOverlay is the bench's probe as an add-on (-probe): drawn over
// the HUD, in every frame that showed the world and did not draw it with
// the sprites (session.fuseProbe).
type probeOverlay struct {
	noHooks
	draw *renderer
}

func (p probeOverlay) overlay(e frameEnd, fw, fh int, _ int64) {
	if e.drew && !e.probeDrawn {
		p.draw.drawProbe(e.rec.ProbeX, e.held, fw, fh)
	}
}
