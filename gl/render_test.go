package gl

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/tandem-engine/tandem/gl/internal/gltest"
	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/shaders"
	"github.com/tandem-engine/tandem/snapshot"
)

// The tests draw on a 128x64 framebuffer through a camera that maps world
// pixels 1:1 onto it: world (x, y) is framebuffer pixel (x, y), top-left
// origin.
const fbW, fbH = 128, 64

var identityCam = snapshot.Camera{X: fbW / 2, Y: fbH / 2, Zoom: 1}

// sprite is one slot of a test snapshot.
type sprite struct {
	id, gen     uint32
	x, y, angle float32
	frame       uint16
	tint        uint32
}

func snap(sprites ...sprite) *snapshot.Snapshot {
	s := &snapshot.Snapshot{Camera: identityCam}
	s.Sprites.Resize(len(sprites))
	for i, p := range sprites {
		tint := p.tint
		if tint == 0 {
			tint = snapshot.White
		}
		s.Sprites.Set(i, p.id, p.gen, p.x, p.y, p.angle, p.frame, tint)
	}
	return s
}

// fixture is a context with the test atlas and a sprite batch.
type fixture struct {
	atlas *Texture
	batch *SpriteBatch
}

// newFixture makes the fixture; its batch has layout l[0] if given, else
// the driver's.
func newFixture(t *testing.T, l ...layout) *fixture {
	t.Helper()
	withGL(t, fbW, fbH)
	f := &fixture{}
	var err error
	gltest.Do(func() {
		img, frames := testAtlas()
		if f.atlas, err = NewTexture(img, true); err != nil {
			return
		}
		if len(l) > 0 {
			f.batch, err = newSpriteBatch(4, f.atlas, frames, l[0], defaultUpload)
		} else {
			f.batch, err = NewSpriteBatch(4, f.atlas, frames)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		gltest.Do(func() {
			f.batch.Delete()
			f.atlas.Delete()
		})
	})
	return f
}

// draw renders the pair at alpha on black and reads the framebuffer back.
func (f *fixture) draw(prev, curr *snapshot.Snapshot, alpha float32) *image.RGBA {
	var img *image.RGBA
	gltest.Do(func() {
		Clear(0, 0, 0, 1)
		f.batch.Upload(prev, curr)
		f.batch.Draw(CameraMatrix(curr.Camera, fbW, fbH), alpha)
		img = ReadPixels(0, 0, fbW, fbH)
	})
	return img
}

func TestSpriteInterpolates(t *testing.T) {
	f := newFixture(t)
	prev := snap(sprite{id: 1, gen: 1, x: 20, y: 20, frame: frameRed})
	curr := snap(sprite{id: 1, gen: 1, x: 60, y: 20, frame: frameRed})
	for _, tc := range []struct {
		alpha float32
		x     int // centre
	}{{0, 20}, {0.5, 40}, {1, 60}} {
		img := f.draw(prev, curr, tc.alpha)
		got := bounds(img, isRed)
		want := image.Rect(tc.x-4, 16, tc.x+4, 24)
		if !near(got, want, 1) {
			t.Errorf("alpha %v: red pixels in %v, want %v", tc.alpha, got, want)
		}
		if lit := bounds(img, isLit); lit != got {
			t.Errorf("alpha %v: lit pixels in %v, beyond the sprite's %v", tc.alpha, lit, got)
		}
	}
}

// TestSpriteSnaps checks that a sprite whose Gen (or ID) changed, or that
// is new, is always drawn at curr, never in between.
func TestSpriteSnaps(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		name       string
		prev, curr *snapshot.Snapshot
	}{
		{"gen", snap(sprite{id: 1, gen: 1, x: 20, y: 20}), snap(sprite{id: 1, gen: 2, x: 100, y: 20})},
		{"id", snap(sprite{id: 1, gen: 1, x: 20, y: 20}), snap(sprite{id: 2, gen: 1, x: 100, y: 20})},
		{"spawned", snap(), snap(sprite{id: 1, gen: 1, x: 100, y: 20})},
	} {
		for i := 0; i <= 10; i++ {
			alpha := float32(i) / 10
			img := f.draw(tc.prev, tc.curr, alpha)
			lit := bounds(img, isLit)
			if want := image.Rect(96, 16, 104, 24); !near(lit, want, 1) {
				t.Errorf("%s, alpha %.1f: drawn in %v, want at curr %v", tc.name, alpha, lit, want)
			}
			// Strictly between the two positions: right of prev's box,
			// left of curr's.
			if between := bounds(img.SubImage(image.Rect(25, 0, 95, fbH)).(*image.RGBA), isLit); !between.Empty() {
				t.Errorf("%s, alpha %.1f: pixels drawn between the positions, in %v", tc.name, alpha, between)
			}
		}
	}
}

func TestSpriteAngleShortestArc(t *testing.T) {
	f := newFixture(t)
	deg := func(d float64) float32 { return float32(d * math.Pi / 180) }
	prev := snap(sprite{id: 1, gen: 1, x: 64, y: 32, angle: deg(350), frame: frameRedGreen})
	curr := snap(sprite{id: 1, gen: 1, x: 64, y: 32, angle: deg(10), frame: frameRedGreen})

	// At 0.5 the angle is 0 (the long way round would give 180, whose box is
	// the same): red on the left, green on the right, 16x4 box.
	img := f.draw(prev, curr, 0.5)
	r, g := bounds(img, isRed), bounds(img, isGreen)
	if want := image.Rect(56, 30, 64, 34); !near(r, want, 1) {
		t.Errorf("alpha 0.5: red half in %v, want %v (angle 0)", r, want)
	}
	if want := image.Rect(64, 30, 72, 34); !near(g, want, 1) {
		t.Errorf("alpha 0.5: green half in %v, want %v (angle 0)", g, want)
	}

	// At 0.25 the angle is -5 degrees (the long way: 95): nearly flat.
	img = f.draw(prev, curr, 0.25)
	lit := bounds(img, isLit)
	// A 16x4 box turned 5 degrees spans 16cos5+4sin5 = 16.3 by 16sin5+4cos5 = 5.4.
	if lit.Dx() < 15 || lit.Dx() > 18 || lit.Dy() < 5 || lit.Dy() > 7 {
		t.Errorf("alpha 0.25: drawn in %v (%dx%d), want about 16x6 (angle -5 degrees)", lit, lit.Dx(), lit.Dy())
	}
	// Turning by -5 degrees (counter-clockwise on screen, y down) raises
	// the right end: the green half's top is above the red half's.
	if r, g := bounds(img, isRed), bounds(img, isGreen); g.Min.Y >= r.Min.Y {
		t.Errorf("alpha 0.25: green top %d not above red top %d: turned the wrong way", g.Min.Y, r.Min.Y)
	}
}

func TestSpriteTintAndFlip(t *testing.T) {
	f := newFixture(t)
	// Half-transparent green tint (straight alpha 0x80) over black; and the
	// flipped frame, which puts red on the right.
	s := snap(
		sprite{id: 1, gen: 1, x: 20, y: 20, frame: frameWhite8, tint: 0x80_00FF_00},
		sprite{id: 2, gen: 1, x: 80, y: 40, frame: frameFlipped},
		sprite{id: 3, gen: 1, x: 100, y: 20, frame: 999}, // not in the table: drawn as nothing
	)
	img := f.draw(s, s, 1)
	if c := img.RGBAAt(20, 20); c.R != 0 || c.B != 0 || c.G < 126 || c.G > 130 {
		t.Errorf("tinted pixel = %v, want green 128 (half of 255, premultiplied blend over black)", c)
	}
	if r, g := bounds(img, isRed), bounds(img, isGreen); !near(r, image.Rect(80, 38, 88, 42), 1) || !near(g, image.Rect(72, 38, 80, 42), 1) {
		t.Errorf("flipped frame: red in %v, green in %v; want red right, green left", r, g)
	}
	if lit := bounds(img.SubImage(image.Rect(90, 0, fbW, fbH)).(*image.RGBA), isLit); !lit.Empty() {
		t.Errorf("a frame past the table drew pixels in %v", lit)
	}
}

func TestSpriteBatchGrows(t *testing.T) {
	f := newFixture(t) // capacity 4
	var sprites []sprite
	for i := range 64 {
		sprites = append(sprites, sprite{id: uint32(i), gen: 1, x: float32(4 + 8*(i%16)), y: float32(4 + 8*(i/16)), frame: frameRed})
	}
	s := snap(sprites...)
	img := f.draw(s, s, 1)
	if got, want := bounds(img, isRed), image.Rect(0, 0, 128, 32); got != want {
		t.Errorf("64 sprites drawn in %v, want %v", got, want)
	}
	if f.batch.Len() != 64 {
		t.Errorf("Len = %d, want 64", f.batch.Len())
	}
}

func TestCameraMatrixPixels(t *testing.T) {
	f := newFixture(t)
	// World (100, 50) through a camera at (80, 40), zoom 2: pixel
	// ((100-80)*2 + 64, (50-40)*2 + 32) = (104, 52); 8x8 becomes 16x16.
	s := snap(sprite{id: 1, gen: 1, x: 100, y: 50, frame: frameRed})
	s.Camera = snapshot.Camera{X: 80, Y: 40, Zoom: 2}
	img := f.draw(s, s, 1)
	if got, want := bounds(img, isRed), image.Rect(96, 44, 112, 60); got != want {
		t.Errorf("zoomed sprite in %v, want %v", got, want)
	}
}

// TestCameraMatrixMaps checks the documented formula over many cameras,
// without a context.
func TestCameraMatrixMaps(t *testing.T) {
	for i := range 1000 {
		cam := snapshot.Camera{X: float32(i*37%2000) - 1000, Y: float32(i*91%1500) - 700, Zoom: 0.25 * float32(1+i%16)}
		w, h := 320+i%7*160, 180+i%5*90
		m := CameraMatrix(cam, w, h)
		wx, wy := cam.X+float32(i%50)-25, cam.Y+float32(i%30)-15
		clip := m.Mul4x1(mgl32.Vec4{wx, wy, 0, 1})
		px := (clip.X() + 1) / 2 * float32(w)
		py := (1 - clip.Y()) / 2 * float32(h) // top-left origin
		wantX := (wx-cam.X)*cam.Zoom + float32(w)/2
		wantY := (wy-cam.Y)*cam.Zoom + float32(h)/2
		if math.Abs(float64(px-wantX)) > 1e-2 || math.Abs(float64(py-wantY)) > 1e-2 {
			t.Fatalf("cam %+v, %dx%d: world (%v, %v) -> pixel (%v, %v), want (%v, %v)", cam, w, h, wx, wy, px, py, wantX, wantY)
		}
	}
}

func TestTileLayer(t *testing.T) {
	withGL(t, fbW, fbH)
	var img *image.RGBA
	var drawn int
	withTestAtlas(t, func(atlas *Texture, frames []UVRect) error {
		// 8 px cells: blue in cell (2, 1), centred at (20, 12); red in
		// (12, 5), at (100, 44); green in (30, 5), out of view.
		grid := TileGrid{W: 40, H: 8, Size: 8, Frames: make([]uint16, 40*8)}
		for i := range grid.Frames {
			grid.Frames[i] = NoTile
		}
		grid.Frames[1*40+2], grid.Frames[5*40+12], grid.Frames[5*40+30] = frameBlue, frameRed, frameRed
		layer, err := NewTileLayer(grid, atlas, frames)
		if err != nil {
			return err
		}
		defer layer.Delete()
		Clear(0, 0, 0, 1)
		layer.Draw(CameraMatrix(identityCam, fbW, fbH), ViewRect{MaxX: fbW, MaxY: fbH})
		drawn = layer.Len()
		img = ReadPixels(0, 0, fbW, fbH)
		return nil
	})
	if drawn != 2 {
		t.Errorf("%d tiles drawn, want the 2 in view", drawn)
	}
	if got, want := bounds(img, isBlue), image.Rect(16, 8, 24, 16); got != want {
		t.Errorf("blue tile in %v, want %v", got, want)
	}
	if got, want := bounds(img, isRed), image.Rect(96, 40, 104, 48); got != want {
		t.Errorf("red tile in %v, want %v", got, want)
	}
}

func TestQuadBatch(t *testing.T) {
	withGL(t, fbW, fbH)
	img := drawQuads(t, []Quad{
		{X: 10, Y: 5, W: 30, H: 7, Frame: frameWhite, Tint: 0xFF_00FF_00},   // green bar
		{X: 100, Y: 50, W: 3, H: 14, Frame: frameWhite, Tint: 0xFF_FF00_00}, // blue bar to the bottom edge
	})
	if got, want := bounds(img, isGreen), image.Rect(10, 5, 40, 12); got != want {
		t.Errorf("green quad in %v, want %v", got, want)
	}
	if got, want := bounds(img, isBlue), image.Rect(100, 50, 103, 64); got != want {
		t.Errorf("blue quad in %v, want %v", got, want)
	}
}

func TestQuadBatchSizesEachDraw(t *testing.T) {
	// A draw of fewer quads after more, of none, and of more than the
	// capacity (the batch grows) each draws exactly its own quads, none
	// left over from the draw before.
	withGL(t, fbW, fbH)
	bar := func(i int) Quad {
		return Quad{X: float32(4 * i), Y: 2, W: 2, H: 4, Frame: frameWhite, Tint: 0xFF_00FF_00}
	}
	draws := [][]Quad{{bar(0), bar(1), bar(2)}, {bar(5)}, {}, {bar(0), bar(1), bar(2), bar(3), bar(4), bar(5), bar(6), bar(7), bar(8)}, {bar(1)}}
	var imgs []*image.RGBA
	withQuadBatch(t, 4, func(q *QuadBatch) {
		for _, d := range draws {
			Clear(0, 0, 0, 1)
			q.Draw(d, fbW, fbH)
			imgs = append(imgs, ReadPixels(0, 0, fbW, fbH))
		}
	})
	for i, d := range draws {
		lit := 0
		for y := 0; y < fbH; y++ {
			for x := 0; x < fbW; x++ {
				if isGreen(imgs[i].RGBAAt(x, y)) {
					lit++
				}
			}
		}
		if want := 8 * len(d); lit != want {
			t.Errorf("draw %d of %d quads lit %d px, want %d", i, len(d), lit, want)
		}
		for _, b := range d {
			r := image.Rect(int(b.X), 2, int(b.X)+2, 6)
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					if !isGreen(imgs[i].RGBAAt(x, y)) {
						t.Fatalf("draw %d: quad at x %v not lit at (%d, %d)", i, b.X, x, y)
					}
				}
			}
		}
	}
}

// drawQuads clears the fbW x fbH framebuffer, draws quads over the test
// atlas and reads the pixels back.
func drawQuads(t *testing.T, quads []Quad) *image.RGBA {
	t.Helper()
	var img *image.RGBA
	withQuadBatch(t, len(quads), func(q *QuadBatch) {
		Clear(0, 0, 0, 1)
		q.Draw(quads, fbW, fbH)
		img = ReadPixels(0, 0, fbW, fbH)
	})
	return img
}

// withQuadBatch runs f on the GL thread with a QuadBatch of capacity n
// over the test atlas, and deletes both after it.
func withQuadBatch(t *testing.T, n int, f func(q *QuadBatch)) {
	t.Helper()
	withTestAtlas(t, func(atlas *Texture, frames []UVRect) error {
		q, err := NewQuadBatch(n, atlas, frames)
		if err != nil {
			return err
		}
		defer q.Delete()
		f(q)
		return nil
	})
}

func TestQuadWholeColumns(t *testing.T) {
	// A quad whose edges are whole pixels lights exactly the pixels inside
	// them, at every column: the probe, drawn from a whole column, is read
	// where it was drawn, never a column beside it.
	withGL(t, fbW, fbH)
	for x := 0; x+8 <= fbW; x++ {
		img := drawQuads(t, []Quad{{X: float32(x), Y: 4, W: 8, H: 8, Frame: frameWhite, Tint: 0xFF_00FF_00}})
		if got, want := bounds(img, isGreen), image.Rect(x, 4, x+8, 12); got != want {
			t.Fatalf("quad at x %d lit %v, want %v", x, got, want)
		}
	}
}

func TestCompileErrorHasLogAndSource(t *testing.T) {
	withGL(t, 16, 16)
	const broken = "#version 410 core\nvoid main() {\n\tgl_Position = vec4(oops);\n}\n"
	var err error
	gltest.Do(func() { _, err = NewProgram("broken", broken, shaders.Sprite.Frag) })
	if err == nil {
		t.Fatal("NewProgram compiled a broken shader")
	}
	msg := err.Error()
	for _, want := range []string{"gl: compile broken: vertex shader:", "oops", "   3: \tgl_Position = vec4(oops);"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	var ce *CompileError
	if !errors.As(err, &ce) || ce.Stage != "vertex" || ce.Log == "" || ce.Source != broken {
		t.Errorf("error does not wrap a *CompileError with the vertex log and source: %#v", ce)
	}
}

func TestLinkErrorHasLog(t *testing.T) {
	withGL(t, 16, 16)
	// The stages disagree on v_x's type.
	const vert = "#version 410 core\nout float v_x;\nvoid main() { v_x = 1.0; gl_Position = vec4(0.0); }\n"
	const frag = "#version 410 core\nin vec2 v_x;\nout vec4 o;\nvoid main() { o = vec4(v_x, 0.0, 1.0); }\n"
	var err error
	gltest.Do(func() { _, err = NewProgram("unlinked", vert, frag) })
	if err == nil {
		t.Fatal("NewProgram linked stages that disagree on a varying's type")
	}
	msg := err.Error()
	for _, want := range []string{"gl: link unlinked:", "v_x", "   2: out float v_x;", "   2: in vec2 v_x;"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
}

func TestEmbeddedShadersLink(t *testing.T) {
	withGL(t, 16, 16)
	for _, p := range shaders.Programs() {
		var err error
		var uniforms map[string]int32
		gltest.Do(func() {
			var prog *Program
			if prog, err = NewProgram(p.Name, p.Vert, p.Frag); err == nil {
				uniforms = prog.uniforms
				prog.Delete()
			}
		})
		if err != nil {
			t.Errorf("program %s: %v", p.Name, err)
			continue
		}
		if len(uniforms) == 0 {
			t.Errorf("program %s: no active uniforms found", p.Name)
		}
	}
}

func TestFormatSource(t *testing.T) {
	got := FormatSource("a\nb\n")
	if want := "   1: a\n   2: b\n"; got != want {
		t.Errorf("FormatSource = %q, want %q", got, want)
	}
}

func TestParseVersion(t *testing.T) {
	for v, want := range map[string][3]int{
		"4.5 (Core Profile) Mesa 22.3.6": {4, 5, 1},
		"4.1 ATI-4.14.1":                 {4, 1, 1},
		"4.6.0 NVIDIA 535.104.05":        {4, 6, 1},
		"3.3 (Compatibility Profile) x":  {3, 3, 1},
		"OpenGL ES 3.2 Mesa":             {0, 0, 0},
		"":                               {0, 0, 0},
	} {
		major, minor, ok := parseVersion(v)
		okInt := 0
		if ok {
			okInt = 1
		}
		if got := [3]int{major, minor, okInt}; got != want {
			t.Errorf("parseVersion(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestSteadyStateAllocs checks that uploading a new pair and drawing it
// (with an overlay too), and drawing the HUD, allocate nothing once the
// batches have grown: the whole process's count over 100 calls, the
// fewest of three tries.
func TestSteadyStateAllocs(t *testing.T) {
	f := newFixture(t)
	var sprites []sprite
	for i := range 500 {
		sprites = append(sprites, sprite{id: uint32(i), gen: 1, x: float32(i % fbW), y: float32(i % fbH), angle: float32(i), frame: uint16(i % 4)})
	}
	prev, curr := snap(sprites...), snap(sprites...)
	curr.Sprites.Gen[7] = 2 // one snapping sprite takes the other branch too
	quads := make([]Quad, 100)
	for i := range quads {
		quads[i] = Quad{X: float32(i), Y: 1, W: 1, H: float32(i % 30), Frame: frameWhite, Tint: snapshot.White}
	}
	var upload, draw, overlay, hud uint64
	var msg string
	gltest.Do(func() {
		q, err := NewQuadBatch(len(quads), f.atlas, []UVRect{{U1: 1, V1: 1}})
		if err != nil {
			msg = err.Error()
			return
		}
		defer q.Delete()
		vp := CameraMatrix(identityCam, fbW, fbH)
		f.batch.Upload(prev, curr) // grows from 4
		alpha := float32(0)
		times := func(f func()) func() {
			return func() {
				for range 100 {
					f()
				}
			}
		}
		upload = mallocs.Fewest(3, times(func() { f.batch.Upload(prev, curr) }))
		draw = mallocs.Fewest(3, times(func() { alpha += 0.01; f.batch.Draw(vp, alpha) }))
		overlay = mallocs.Fewest(3, times(func() {
			f.batch.SetOverlay(Overlay{X: alpha, Y: 4, W: 8, H: 8, Frame: frameRed}, fbW, fbH)
			f.batch.Draw(vp, alpha)
		}))
		hud = mallocs.Fewest(3, times(func() { q.Draw(quads, fbW, fbH) }))
		Finish()
	})
	if msg != "" {
		t.Fatal(msg)
	}
	if upload != 0 || draw != 0 || overlay != 0 || hud != 0 {
		t.Errorf("allocations in 100 calls: SpriteBatch.Upload %v, SpriteBatch.Draw %v, with an overlay %v, QuadBatch.Draw %v; want 0",
			upload, draw, overlay, hud)
	}
}

// TestDoRunsOnMainThread checks the harness itself: GL work runs on the
// main OS thread, and the tests do not.
func TestDoRunsOnMainThread(t *testing.T) {
	var inside bool
	gltest.Do(func() { inside = gltest.OnMainThread() })
	if !inside || gltest.OnMainThread() {
		t.Errorf("on the main thread: inside Do %v (want true), in the test %v (want false)", inside, gltest.OnMainThread())
	}
}

func ExampleCameraMatrix() {
	// A camera centred on world (100, 50) at zoom 2, on a 640x360
	// framebuffer: world (110, 45) is 10 px right and 5 px up of the
	// centre, so 20 and 10 framebuffer pixels from (320, 180).
	m := CameraMatrix(snapshot.Camera{X: 100, Y: 50, Zoom: 2}, 640, 360)
	clip := m.Mul4x1(mgl32.Vec4{110, 45, 0, 1})
	x := (clip.X() + 1) / 2 * 640
	y := (1 - clip.Y()) / 2 * 360 // from the top
	fmt.Println(x, y)
	// Output: 340 170
}

func ExampleFormatSource() {
	fmt.Print(FormatSource("#version 410 core\nvoid main() {}\n"))
	// Output:
	//    1: #version 410 core
	//    2: void main() {}
}
