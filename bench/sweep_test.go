package bench

import (
	"strings"
	"testing"
)

func TestWriteSweepMarkdown(t *testing.T) {
	// Rows by name in first-seen order, each figure as min–max (median)
	// over the name's reps; one value when they agree or there is one;
	// "–" where no rep measured it (-1 in the summary, or not there: the
	// host's floor, with -host-floor only).
	res := func(name string, anim, fps float64, overdue int, steal float64) Result {
		return Result{Name: name, Summary: sm(map[string]any{
			"anim_err_ms_p99": anim, "fps_mean": fps, "frames_snapshot_overdue": float64(overdue),
			"judder": -1.0, "host_steal_pct": steal,
		})}
	}
	floor := func(r Result, p99 float64) Result { r.Summary.HostFloorMsP99 = &p99; return r }
	var b strings.Builder
	err := WriteSweepMarkdown(&b, "pacing", []Result{
		floor(res("delay=auto/cap=0", 5.08, 54.3, 0, 0.2), 0.57), res("hold/cap=0", 2.42, 43.1, 0, 8.94),
		floor(res("delay=auto/cap=0", 6.42, 68.5, 0, 0.4), 2), res("hold/cap=0", 1.04, 47.6, 1, 0.3),
		floor(res("delay=auto/cap=0", 5.09, 55.3, 0, 0.3), 1.02),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if lines[0] != "# pacing" || !strings.HasPrefix(lines[2], "| run | n | `anim_err_ms_p99` |") {
		t.Fatalf("heading and header:\n%s", b.String())
	}
	for i, want := range []string{
		"| delay=auto/cap=0 | 3 | 5.08–6.42 (5.09) | – | 0 | – | – | 54.3–68.5 (55.3) | – | – | – | 0 | 0 | 0.2–0.4 (0.3) | 0.57–2.00 (1.02) | – |",
		"| hold/cap=0 | 2 | 1.04–2.42 (1.73) | – | 0 | – | – | 43.1–47.6 (45.4) | – | – | – | 0–1 (0.5) | 0 | 0.3–8.9 (4.6) | – | – |",
	} {
		if got := lines[4+i]; got != want {
			t.Errorf("row %d:\n got %s\nwant %s", i, got, want)
		}
	}
	// One run met a host stealing 8.94%: the table says so under it.
	if want := "1 of 5 runs were measured while the host stole 2% or more of the CPU (`host_steal_pct`)"; !strings.HasPrefix(lines[len(lines)-1], want) {
		t.Errorf("last line %q, want it to start %q", lines[len(lines)-1], want)
	}
	b.Reset()
	if err := WriteSweepMarkdown(&b, "", []Result{res("a", 1, 60, 0, 0.3)}, nil); err != nil || strings.Contains(b.String(), "host stole") {
		t.Errorf("a quiet run's table: %v\n%s", err, b.String())
	}
}
