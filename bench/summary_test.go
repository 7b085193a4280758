package bench

import (
	"encoding/json"
	"math"
	"testing"
)

// TestFiguresReadTheirFields checks that every Figure the reports read
// reads the field its name is the JSON name of: a line holding that
// name alone gives its value to that figure and to no other.
func TestFiguresReadTheirFields(t *testing.T) {
	for _, f := range reportFigures {
		line, err := json.Marshal(map[string]any{f.Name: 37})
		if err != nil {
			t.Fatal(err)
		}
		s, err := ReadSummary(line)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := f.Value(&s); !ok || v != 37 {
			t.Errorf("%s: %v (measured %v), want 37", f.Name, v, ok)
		}
		for _, g := range reportFigures {
			if v, ok := g.Value(&s); g.Name != f.Name && ok && v == 37 {
				t.Errorf("%s reads the line's %s", g.Name, f.Name)
			}
		}
	}
}

// TestNum checks "not measured": NaN is written null and read back NaN,
// a line without the field reads as not measured too, and a negative
// figure is a measured one.
func TestNum(t *testing.T) {
	b, err := json.Marshal(struct{ A, B, C Num }{NaN, -1.5, Num(math.Inf(1))})
	if err != nil || string(b) != `{"A":null,"B":-1.5,"C":null}` {
		t.Fatalf("marshal: %s, %v", b, err)
	}
	s, err := ReadSummary([]byte(`{"fps_mean":null,"av_offset_ms_p50":-2.25}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.FPSMean.Value(); ok {
		t.Errorf("fps_mean null: %v, want not measured", s.FPSMean)
	}
	if _, ok := s.LatencyMsP50.Value(); ok {
		t.Errorf("latency_ms_p50 absent: %v, want not measured", s.LatencyMsP50)
	}
	if v, ok := s.AVOffsetMsP50.Value(); !ok || v != -2.25 {
		t.Errorf("av_offset_ms_p50 = %v (%v), want -2.25 measured", v, ok)
	}
	if _, err := ReadSummary([]byte(`{"fps_mean":"fast"}`)); err == nil {
		t.Errorf("a figure that is a string: no error")
	}
}
