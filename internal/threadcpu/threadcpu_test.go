package threadcpu

import "testing"

func TestParseSchedstat(t *testing.T) {
	for _, c := range []struct {
		in        string
		run, wait int64
		ok        bool
	}{
		{"1670117276 9644003 1021\n", 1670117276, 9644003, true},
		{"0 0 0\n", 0, 0, true},
		{"12 34", 0, 0, false}, // the wait not followed by the slices
		{"12\n", 0, 0, false},
		{"", 0, 0, false},
		{"x 1 2\n", 0, 0, false},
	} {
		run, wait, ok := parseSchedstat([]byte(c.in))
		if run != c.run || wait != c.wait || ok != c.ok {
			t.Errorf("%q: %d, %d, %v; want %d, %d, %v", c.in, run, wait, ok, c.run, c.wait, c.ok)
		}
	}
}

func TestFigures(t *testing.T) {
	// 2 s, 400 frames: the thread ran 1.6 s and waited 20 ms; the process
	// ran 1.9 s, so the others 0.3 s of 2 s: 15% of a CPU.
	a := Times{Run: 1e9, Wait: 5e6, Process: 3e9}
	b := Times{Run: 2.6e9, Wait: 25e6, Process: 4.9e9}
	cpu, wait, others, ok := Figures(a, b, 400, 2e9)
	if !ok || cpu != 4 || wait != 0.05 || others != 15 {
		t.Errorf("Figures = %v, %v, %v, %v; want 4 ms, 0.05 ms, 15%%, true", cpu, wait, others, ok)
	}
	for _, c := range []struct {
		a, b   Times
		frames int
		d      int64
	}{
		{Times{}, b, 400, 2e9}, {a, Times{}, 400, 2e9}, {a, b, 0, 2e9}, {a, b, 400, 0}, {b, a, 400, 2e9},
	} {
		if _, _, _, ok := Figures(c.a, c.b, c.frames, c.d); ok {
			t.Errorf("Figures(%+v, %+v, %d, %d) is ok; want not", c.a, c.b, c.frames, c.d)
		}
	}
}

func TestNilReader(t *testing.T) {
	// Open's nil (off Linux, or no /proc) reads nothing and closes.
	var r *Reader
	if _, ok := r.Read(); ok {
		t.Fatal("a nil Reader read")
	}
	r.Close()
}
