//go:build cgo

package app

import (
	"fmt"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/snapshot"
)

// glyphAtlasPx is the side of the glyph atlas: 1024 x 1024 texels hold
// about 4000 glyphs of 16 px, or 600 of 48 px.
const glyphAtlasPx = 1024

// drawing is the renderer's part for what a game draws besides sprites
// and tiles: shapes and text layer by layer between the sprites' layers,
// and the game's shaders with their offscreen targets. A game that
// declared no shader draws straight onto the frame; one with no shapes
// or text draws its sprites in one call, as before.
type drawing struct {
	look    *engine.DrawLook
	shapes  *gl.ShapeBatch
	glyphs  *gl.GlyphCache
	sprites *gl.SpriteLayers

	posts   []*gl.PostShader // the game's shaders, in Setup's order
	offered bool             // some layer or the frame goes through a target
	frame   *gl.Target       // the frame, for ScreenShader
	layer   [snapshot.Layers]*gl.Target
	sampled [snapshot.Layers]*gl.Target // the Offscreen layers, as shaders see them
	values  []float32                   // the uniforms blended for the frame
	clear   [4]float32
}

// newDrawing makes the GL objects of l: a failure to compile a game's
// shader is a *gl.ShaderError naming it and its line. On an error, what
// it made is deleted.
func newDrawing(l *engine.Look, batch *gl.SpriteBatch) (d *drawing, err error) {
	d = &drawing{look: &l.Draw, clear: l.Clear}
	defer func() {
		if err != nil {
			d.delete()
			d = nil
		}
	}()
	if d.shapes, err = gl.NewShapeBatch(256); err != nil {
		return d, err
	}
	if d.glyphs, err = gl.NewGlyphCache(l.Draw.Fonts, glyphAtlasPx); err != nil {
		return d, err
	}
	d.sprites = gl.NewSpriteLayers(batch)
	n := 0
	for _, sh := range l.Draw.Shaders {
		var us []gl.PostUniform
		for _, u := range sh.Uniforms {
			us = append(us, gl.PostUniform{Name: u.Name, N: u.N, At: sh.Offset + u.At})
			n = max(n, sh.Offset+u.At+u.N)
		}
		p, err := gl.NewPostShader(sh.Name, sh.Source, us)
		if err != nil {
			return d, fmt.Errorf("tandem: %w", err)
		}
		d.posts = append(d.posts, p)
	}
	d.values = make([]float32, n)
	if l.Draw.ScreenShader > 0 {
		if d.frame, err = gl.NewTarget(1, 1); err != nil {
			return d, err
		}
		d.offered = true
	}
	for k := range snapshot.Layers {
		if l.Draw.LayerShader[k] > 0 || l.Draw.Offscreen[k] {
			if d.layer[k], err = gl.NewTarget(1, 1); err != nil {
				return d, err
			}
			d.offered = true
		}
		if l.Draw.Offscreen[k] {
			d.sampled[k] = d.layer[k]
		}
	}
	return d, nil
}

// delete deletes what d made; d may be nil.
func (d *drawing) delete() {
	if d == nil {
		return
	}
	if d.shapes != nil {
		d.shapes.Delete()
	}
	if d.glyphs != nil {
		d.glyphs.Delete()
	}
	for _, p := range d.posts {
		p.Delete()
	}
	if d.frame != nil {
		d.frame.Delete()
	}
	for _, t := range d.layer {
		if t != nil {
			t.Delete()
		}
	}
	*d = drawing{}
}

// upload sends a new pair's shapes and text.
func (d *drawing) upload(p, c *snapshot.Snapshot) {
	d.shapes.Upload(p, c, d.glyphs)
}

// draw draws the world of the pair (p, c) at alpha through cam on a fw x
// fh framebuffer: the tiles, then each layer's sprites, shapes and text,
// then the screen-space shapes and text, through the game's targets and
// shaders when it has some. simTime is the moment shown, for u_time.
func (d *drawing) draw(tiles *gl.TileLayer, view gl.ViewRect, p, c *snapshot.Snapshot, cam snapshot.Camera, fw, fh int, alpha float32, simTime int64) {
	vp := gl.CameraMatrix(cam, fw, fh)
	d.shapes.SetZoom(cam.Zoom) // for the next pair's text
	px := 1 / max(cam.Zoom, 1e-6)
	if cam.Zoom <= 0 {
		px = 1
	}
	if d.spritesOnly() {
		// Nothing but sprites: the one call they always took.
		tiles.Draw(vp, view)
		d.sprites.Draw(vp, alpha, 0, c.Sprites.Len())
		return
	}
	if d.offered {
		d.blendUniforms(p, c, alpha)
		for _, t := range d.layer {
			if t != nil {
				t.Resize(fw, fh)
			}
		}
	}
	if d.frame != nil {
		d.frame.Resize(fw, fh)
		d.frame.Bind(d.clear[0], d.clear[1], d.clear[2], d.clear[3])
	}
	tiles.Draw(vp, view)
	ends := &c.Draw.SpriteLayerEnd
	from := 0
	t := float32(float64(simTime) / 1e9)
	for k := range snapshot.Layers {
		end := int(ends[k])
		if k == snapshot.Layers-1 || end > c.Sprites.Len() {
			end = c.Sprites.Len() // a snapshot from a world without layer ends
		}
		target := d.layer[k]
		if target != nil {
			target.Bind(0, 0, 0, 0)
		}
		d.sprites.Draw(vp, alpha, from, end-from)
		d.shapes.Draw(k, false, vp, px, alpha)
		from = end
		if target == nil {
			continue
		}
		d.bindFrame(fw, fh)
		if sh := d.look.LayerShader[k]; sh > 0 {
			d.posts[sh-1].Draw(target, &d.sampled, d.values, t, fw, fh)
		}
	}
	screen := gl.ScreenMatrix(fw, fh)
	for k := range snapshot.Layers {
		d.shapes.Draw(k, true, screen, 1, alpha)
	}
	if d.frame != nil {
		gl.BindScreen(fw, fh)
		d.posts[d.look.ScreenShader-1].Draw(d.frame, &d.sampled, d.values, t, fw, fh)
	}
}

// spritesOnly says the pair uploaded draws nothing but its tiles and
// sprites, straight onto the frame, the sprites last in one call.
func (d *drawing) spritesOnly() bool { return !d.offered && d.shapes.Len() == 0 }

// bindFrame makes the frame (its target, or the window) what draws draw
// into again, without clearing it.
func (d *drawing) bindFrame(fw, fh int) {
	if d.frame != nil {
		d.frame.BindKeep()
		return
	}
	gl.BindScreen(fw, fh)
}

// blendUniforms blends the shaders' uniforms between the pair.
func (d *drawing) blendUniforms(p, c *snapshot.Snapshot, alpha float32) {
	cu, pu := c.Draw.Uniforms, p.Draw.Uniforms
	for i := range d.values {
		if i >= len(cu) {
			d.values[i] = 0
			continue
		}
		v := cu[i]
		if i < len(pu) {
			v = snapshot.Lerp(pu[i], cu[i], alpha)
		}
		d.values[i] = v
	}
}
