//go:build cgo

package app

import (
	"math"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/snapshot"
)

// The probe drawn as a game draws (-probe-shape), and the check of the
// probe's pixels against the frames' records (-probe-check).

// The shape probe's layout, in framebuffer pixels from the top-left: a
// black band probeBand rows high along the top, the 8 x 8 square's top
// edge on row 4 as the quad's, and the label's top on row 14.
const (
	probeBand    = 32
	probeLabelY  = 14
	probeLabelPx = 12
	probeLabel   = "probe"
)

// publishProbeShape adds the shape probe to a snapshot's drawing, after
// the game's: the band (key 0: drawn where it is), the square and the
// label at x wrapped at w, each keyed so that the renderer blends them
// between snapshots as it blends a game's shapes and text. The keys
// alternate at each wrap, so a pair across one snaps rather than slide
// back across the frame. A game's keys all have the top bit set
// (tandem's drawKey): these never meet them. It allocates only while the
// snapshot's slices grow.
func publishProbeShape(d *snapshot.Draw, x, w float64, held bool) {
	// A Sim that leaves a snapshot's drawing as its slot last held it
	// (tandem's World replaces it every tick) would gain a probe each time
	// round the ring: the probe last published there goes first.
	if n, t := len(d.Shapes), len(d.Texts); n >= 2 && t >= 1 && probeKey(d.Shapes[n-1].Key) && probeKey(d.Texts[t-1].Key-2) {
		d.Chars = d.Chars[:d.Texts[t-1].From]
		d.Shapes, d.Texts = d.Shapes[:n-2], d.Texts[:t-1]
	}
	n := math.Floor(x / w)
	xw := float32(x - n*w)
	key := uint64(1 + int64(n)&1)
	tint := uint32(probeColor)
	if held {
		tint = probeHeldColor
	}
	d.Shapes = append(d.Shapes,
		snapshot.Shape{Kind: snapshot.ShapeRect, Flags: snapshot.ShapeScreen, Layer: snapshot.Layers - 1, A: float32(w), B: probeBand, Tint: 0xFF000000},
		snapshot.Shape{Key: key, Kind: snapshot.ShapeRect, Flags: snapshot.ShapeScreen, Layer: snapshot.Layers - 1, X: xw, Y: 4, A: 8, B: 8, Tint: tint})
	from := int32(len(d.Chars))
	d.Chars = append(d.Chars, probeLabel...)
	d.Texts = append(d.Texts, snapshot.TextRun{Key: key + 2, X: xw, Y: probeLabelY, Size: probeLabelPx,
		Layer: snapshot.Layers - 1, Flags: snapshot.ShapeScreen, Tint: tint, From: from, To: int32(len(d.Chars))})
}

// probeKey reports whether k is one of the shape probe's square's keys.
func probeKey(k uint64) bool { return k == 1 || k == 2 }

// probeCheck is the add-on that reads the probe back (-probe-check): on
// every 8th frame of the measured window, before the swap, the top
// probeBand rows; the probe's centre in them (the coverage-weighted mean
// column of its middle rows) against the frame record's x + 4; with the
// shape probe, the label's centre against the same x, whose spread over
// the run says whether the text moves with the square.
type probeCheck struct {
	noHooks
	from   int64 // the measured window's start
	shape  bool
	frames int
	buf    []byte

	checked, skipped, missing int
	errSum, errMax            float64
	labelMin, labelMax        float64
}

func newProbeCheck(o Options, start int64) *probeCheck {
	return &probeCheck{from: start + int64(o.Measure.Warmup), shape: o.Measure.ProbeShape,
		labelMin: math.Inf(1), labelMax: math.Inf(-1)}
}

// overlay checks the frame e drew at now, after the probe is drawn and
// before the swap; e.probeWrap says that its two snapshots lie on either
// side of a wrap, where the shape probe snaps. Render thread only.
func (c *probeCheck) overlay(e frameEnd, fw, fh int, now int64) {
	if !e.drew || now < c.from || fh < probeBand {
		return
	}
	if c.frames++; c.frames%8 != 0 {
		return
	}
	xw := math.Mod(e.rec.ProbeX, float64(fw))
	// Past the right edge the square (and the label) are cut.
	if e.probeWrap || xw < 2 || xw > float64(fw)-60 {
		c.skipped++
		return
	}
	if n := fw * probeBand * 4; len(c.buf) != n {
		c.buf = make([]byte, n)
	}
	gl.ReadRowsInto(c.buf, fh-probeBand, fw, probeBand)
	x0 := int(xw)
	centre, ok := c.centre(fw, 6, 10, x0-4, x0+14)
	if !ok {
		c.missing++
		return
	}
	err := math.Abs(centre - (xw + 4))
	c.checked++
	c.errSum += err
	c.errMax = max(c.errMax, err)
	if c.shape {
		if l, ok := c.centre(fw, probeLabelY, probeBand, x0-2, x0+56); ok {
			c.labelMin, c.labelMax = min(c.labelMin, l-xw), max(c.labelMax, l-xw)
		}
	}
}

// centre is the coverage-weighted mean x (pixel centres at +0.5) of the
// probe's colour in rows top to bottom-1 (from the top) and columns
// from x0 to x1-1. The quad is solid (a pixel is the probe's colour or
// not); the shape's edges are anti-aliased over the black band, so a
// pixel's coverage is its blue (both tints have full blue) where the
// rest is the tint's blend over black.
func (c *probeCheck) centre(fw, top, bottom, x0, x1 int) (float64, bool) {
	var sum, wsum float64
	for row := top; row < bottom; row++ {
		line := c.buf[(probeBand-1-row)*fw*4:]
		for x := max(x0, 0); x < min(x1, fw); x++ {
			r, g, b := line[4*x], line[4*x+1], line[4*x+2]
			var cov float64
			switch {
			case !c.shape:
				if b == 0xFF && (r == 0xFF && g == 0 || r == 0 && g == 0xFF) {
					cov = 1
				}
			case g == 0 && r == b, r == 0 && g == b:
				cov = float64(b) / 255
			}
			sum += cov
			wsum += cov * (float64(x) + 0.5)
		}
	}
	if sum == 0 {
		return 0, false
	}
	return wsum / sum, true
}

func (c *probeCheck) summary(sum *Summary, _ *bench.Records) {
	sum.ProbeChecked, sum.ProbeSkipped, sum.ProbeMissing = &c.checked, &c.skipped, &c.missing
	if c.checked > 0 {
		mean := c.errSum / float64(c.checked)
		sum.ProbeErrPxMean, sum.ProbeErrPxMax = &mean, &c.errMax
	}
	if c.shape && c.labelMax >= c.labelMin {
		spread := c.labelMax - c.labelMin
		sum.ProbeLabelSpreadPx = &spread
	}
}
