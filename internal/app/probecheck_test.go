//go:build cgo

package app

import (
	"math"
	"testing"

	"github.com/tandem-engine/tandem/snapshot"
)

// TestProbeShapeKeys: the shape probe is published wrapped at the
// framebuffer's width, after the game's drawing, with keys that stay the
// same between two ticks on one side of a wrap and change across it.
func TestProbeShapeKeys(t *testing.T) {
	var a, b, c snapshot.Draw
	a.Shapes = append(a.Shapes, snapshot.Shape{Key: 1<<63 | 5}) // the game's
	publishProbeShape(&a, 630, 640, false)
	publishProbeShape(&b, 634, 640, false)
	publishProbeShape(&c, 642, 640, true)
	if len(a.Shapes) != 3 || a.Shapes[0].Key != 1<<63|5 || len(a.Texts) != 1 || string(a.Chars[a.Texts[0].From:a.Texts[0].To]) != probeLabel {
		t.Fatalf("after the game's shape: %+v, %+v, %q", a.Shapes, a.Texts, a.Chars)
	}
	sq := func(d *snapshot.Draw) snapshot.Shape { return d.Shapes[len(d.Shapes)-1] }
	if sq(&a).Key != sq(&b).Key || a.Texts[0].Key != b.Texts[0].Key || sq(&b).Key == sq(&c).Key || b.Texts[0].Key == c.Texts[0].Key {
		t.Errorf("keys %d %d %d, labels %d %d %d: want the same before the wrap and new across it",
			sq(&a).Key, sq(&b).Key, sq(&c).Key, a.Texts[0].Key, b.Texts[0].Key, c.Texts[0].Key)
	}
	if sq(&c).X != 2 || c.Texts[0].X != 2 || sq(&c).Tint != probeHeldColor || c.Shapes[0].Key != 0 || c.Shapes[0].A != 640 {
		t.Errorf("after the wrap: square %+v, label %+v, band %+v", sq(&c), c.Texts[0], c.Shapes[0])
	}
	// A snapshot whose drawing no one replaced gets the probe once.
	publishProbeShape(&a, 638, 640, false)
	if len(a.Shapes) != 3 || len(a.Texts) != 1 || len(a.Chars) != len(probeLabel) || a.Shapes[0].Key != 1<<63|5 || sq(&a).X != 638 {
		t.Errorf("published twice: %d shapes, %d texts, %q, square %+v", len(a.Shapes), len(a.Texts), a.Chars, sq(&a))
	}
}

// TestProbeCentre reads made-up rows: a solid quad's centre is its
// columns', an anti-aliased square's is its coverage's, and the label's
// colour over black counts as coverage.
func TestProbeCentre(t *testing.T) {
	const fw = 64
	put := func(c *probeCheck, row, x int, r, g, b byte) {
		i := ((probeBand-1-row)*fw + x) * 4
		c.buf[i], c.buf[i+1], c.buf[i+2], c.buf[i+3] = r, g, b, 0xFF
	}
	quad := &probeCheck{buf: make([]byte, fw*probeBand*4)}
	for row := 4; row < 12; row++ {
		put(quad, row, 9, 0x80, 0x00, 0xFF) // not the probe's colour
		for x := 10; x < 18; x++ {
			put(quad, row, x, 0xFF, 0x00, 0xFF)
		}
	}
	if got, ok := quad.centre(fw, 6, 10, 0, fw); !ok || got != 14 {
		t.Errorf("quad: centre %v, %v; want 14", got, ok)
	}
	// A square from x = 10.25 to 18.25: a quarter of column 10 uncovered,
	// a quarter of column 18 covered.
	shape := &probeCheck{shape: true, buf: make([]byte, fw*probeBand*4)}
	for row := 4; row < 12; row++ {
		put(shape, row, 10, 0xBF, 0x00, 0xBF)
		for x := 11; x < 18; x++ {
			put(shape, row, x, 0xFF, 0x00, 0xFF)
		}
		put(shape, row, 18, 0x00, 0x40, 0x40) // cyan, a quarter
	}
	if got, ok := shape.centre(fw, 6, 10, 0, fw); !ok || math.Abs(got-14.25) > 0.01 {
		t.Errorf("shape: centre %v, %v; want 14.25", got, ok)
	}
	if _, ok := shape.centre(fw, 20, 30, 0, fw); ok {
		t.Error("found a probe in black rows")
	}
}
