//go:build cgo && linux

package tandem

import (
	"bytes"
	"testing"

	"github.com/tandem-engine/tandem/internal/jsonline"
)

// TestCeilingRun runs tandem bench -ceiling, the bare quads the bench
// holds the engine to, end to end, upright and turning (-spin): a summary
// with frames, its frame rate, next to nothing allocated a frame (the
// whole test process's count, as TestFrameAllocs bounds it), and where its
// CPU went.
func TestCeilingRun(t *testing.T) {
	needDisplay(t)
	for _, spin := range []bool{false, true} {
		args := []string{"bench", "-ceiling", "-sprites", "500", "-warmup", "0.3", "-seconds", "1", "-json"}
		if spin {
			args = append(args, "-spin")
		}
		testCeilingRun(t, args, spin)
	}
}

func testCeilingRun(t *testing.T, args []string, spin bool) {
	var stdout, stderr bytes.Buffer
	code := 0
	onMain(func() { code = Command(args, &stdout, &stderr, &stepper{}) })
	if code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, stderr.String())
	}
	out := stdout.String()
	if e := jsonline.Field(t, out, "engine"); e != "ceiling" {
		t.Errorf("engine %v, want ceiling: %s", e, out)
	}
	if s := jsonline.Field(t, out, "spin"); s != spin {
		t.Errorf("spin %v, want %v: %s", s, spin, out)
	}
	frames, _ := jsonline.Field(t, out, "frames").(float64)
	fps, _ := jsonline.Field(t, out, "fps_mean").(float64)
	if frames < 10 || fps <= 0 {
		t.Fatalf("%v frames at %v FPS: %s", frames, fps, out)
	}
	bound := 0.2
	if raceEnabled {
		bound = 0.9
	}
	if a, ok := jsonline.Field(t, out, "allocs_per_frame").(float64); !ok || a < 0 || a > bound {
		t.Errorf("allocs_per_frame %v, want at most %v", jsonline.Field(t, out, "allocs_per_frame"), bound)
	}
	cpu, okCPU := jsonline.Field(t, out, "render_cpu_ms_per_frame").(float64)
	others, okOthers := jsonline.Field(t, out, "other_threads_cpu_pct").(float64)
	if !okCPU || !okOthers || cpu <= 0 || cpu*fps > 1100 || others < 0 {
		t.Errorf("render_cpu_ms_per_frame %v at %v FPS, other_threads_cpu_pct %v", cpu, fps, others)
	}
}
