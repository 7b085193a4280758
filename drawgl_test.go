//go:build cgo && linux

package tandem

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// broken is a game whose shader does not compile (line 4).
type broken struct{}

func (broken) Setup(s *Setup) error {
	sh, err := s.Shader("wobble", "#version 410 core\nout vec4 o_color;\nvoid main() {\n\to_color = vec4(1.0) +;\n}\n")
	if err != nil {
		return err
	}
	s.ScreenShader(sh)
	return nil
}
func (broken) Tick(*World) {}

// TestShaderErrorBeforeFrame checks that a game's shader that does not
// compile stops the run before its first frame, with the shader's name,
// its line and the driver's word.
func TestShaderErrorBeforeFrame(t *testing.T) {
	needDisplay(t)
	var out, errs bytes.Buffer
	var err error
	onMain(func() {
		err = Run(context.Background(), broken{}, Config{Seconds: 2, Width: 320, Height: 240, JSON: true, Stdout: &out, Stderr: &errs, Mute: true})
	})
	if err == nil || !strings.Contains(err.Error(), `shader "wobble": line 4:`) || !strings.Contains(err.Error(), "o_color = vec4(1.0) +;") {
		t.Fatalf("error %v, want one naming shader \"wobble\", line 4 and its text", err)
	}
	if out.Len() != 0 {
		t.Fatalf("a summary was written: %s", out.String())
	}
	t.Logf("the error: %v", err)
}

// TestDrawFrames runs the drawing test game (shapes and text on an
// entity, a score in a loaded font, a layer shader with uniforms) in a
// window: its frames allocate nothing once warm, and its screenshot shows
// the shapes.
func TestDrawFrames(t *testing.T) {
	needDisplay(t)
	shot := filepath.Join(t.TempDir(), "draw.png")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out, errs bytes.Buffer
	var err error
	onMain(func() {
		err = Run(ctx, &drawer{}, Config{Seconds: 3, Width: 640, Height: 360, JSON: true, Stdout: &out, Stderr: &errs,
			Mute: true, NoVSync: true, Screenshot: shot})
	})
	if err != nil {
		t.Fatalf("Run: %v; stderr: %s", err, errs.String())
	}
	var sum struct {
		Frames         int     `json:"frames"`
		AllocsPerFrame float64 `json:"allocs_per_frame"`
	}
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	bound := 0.2
	if raceEnabled {
		bound = 0.9
	}
	if sum.Frames < 30 || sum.AllocsPerFrame > bound {
		t.Fatalf("%d frames at %v allocations a frame (at most %v)", sum.Frames, sum.AllocsPerFrame, bound)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// The bar on the ship is green (0xFF00FF00): some of the frame is.
	green := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if g > 0xC000 && r < 0x4000 && bl < 0x4000 {
				green++
			}
		}
	}
	if green < 20 {
		t.Errorf("%d green pixels in the screenshot, want the bar's (20 x 4)", green)
	}
}

// TestProbeShapeChecked runs the probe drawn as a game draws
// (-probe-shape: a keyed square and label published by the sim, blended
// on the GPU) with -probe-check, which reads the probe back: the square's
// centre in the pixels is where the frame's record puts it, to a small
// fraction of a pixel (the quad probe, drawn from a whole column, is off
// by up to half a pixel), and the label moves with it.
func TestProbeShapeChecked(t *testing.T) {
	needDisplay(t)
	sum := runOnMain(t, nil, "-scene", "dots", "-sprites", "200", "-probe-shape", "-probe-check",
		"-seconds", "1.2", "-width", "640", "-height", "360")
	if !sum.ProbeShape || sum.ProbeChecked == nil || sum.ProbeErrPxMax == nil || sum.ProbeLabelSpreadPx == nil {
		t.Fatalf("summary: probe_shape %v, checked %v, err max %v, label spread %v", sum.ProbeShape, sum.ProbeChecked, sum.ProbeErrPxMax, sum.ProbeLabelSpreadPx)
	}
	if *sum.ProbeChecked < 5 || *sum.ProbeMissing != 0 {
		t.Fatalf("%d frames checked, %d without a probe in the pixels", *sum.ProbeChecked, *sum.ProbeMissing)
	}
	if *sum.ProbeErrPxMax > 0.05 {
		t.Errorf("the square's centre was up to %.3f px from the record's x + 4", *sum.ProbeErrPxMax)
	}
	if *sum.ProbeLabelSpreadPx > 0.75 {
		t.Errorf("the label's centre moved %.3f px against the square's", *sum.ProbeLabelSpreadPx)
	}
	t.Logf("%d frames checked: err mean %.4f px, max %.4f px; label spread %.3f px",
		*sum.ProbeChecked, *sum.ProbeErrPxMean, *sum.ProbeErrPxMax, *sum.ProbeLabelSpreadPx)
}
