package snapshot_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

func pair(px, cx float32, pgen, cgen uint32) (*snapshot.Snapshot, *snapshot.Snapshot) {
	p, c := &snapshot.Snapshot{Tick: 1, SimTime: 100, Time: 1000, Next: 2000},
		&snapshot.Snapshot{Tick: 2, SimTime: 200, Time: 2000, Next: 3000}
	p.Sprites.Resize(1)
	c.Sprites.Resize(1)
	p.Sprites.Set(0, 7, pgen, px, 0, 0, 0, snapshot.White)
	c.Sprites.Set(0, 7, cgen, cx, 0, 0, 0, snapshot.White)
	return p, c
}

func TestAlpha(t *testing.T) {
	p, c := pair(0, 10, 0, 0)
	for _, tc := range []struct {
		now   int64
		extra float64
		want  float64
	}{
		{1500, 0, 0},       // before curr is due: prev
		{2000, 0, 0},       // curr just due
		{2500, 0, 0.5},     // halfway to its successor
		{3000, 0, 1},       // successor due
		{9000, 0, 1},       // late sim: clamp, no guessing
		{3500, 0.25, 1.25}, // extrapolation, bounded
		{3250, 0.5, 1.25},
	} {
		if got := snapshot.Alpha(p, c, tc.now, tc.extra); got != tc.want {
			t.Errorf("Alpha at %d (extra %v) = %v, want %v", tc.now, tc.extra, got, tc.want)
		}
	}
	c.Next = c.Time // paused
	if got := snapshot.Alpha(p, c, 2100, 0); got != 1 {
		t.Errorf("paused alpha %v, want 1", got)
	}
}

func TestLerpAngleShortestArc(t *testing.T) {
	deg := func(d float64) float32 { return float32(d * math.Pi / 180) }
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		a := rng.Float64()*720 - 360
		d := rng.Float64()*358 - 179 // the short way from a to b
		b := a + d + 360*float64(rng.IntN(5)-2)
		tt := rng.Float32()
		got := float64(snapshot.LerpAngle(deg(a), deg(b), tt)) * 180 / math.Pi
		want := a + d*float64(tt)
		if diff := math.Remainder(got-want, 360); math.Abs(diff) > 1e-3 {
			t.Fatalf("LerpAngle(%v°, %v°, %v) = %v°, want %v° (mod 360)", a, b, tt, got, want)
		}
	}
}

func TestInterpolateSnapsNewGeneration(t *testing.T) {
	p, c := pair(20, 60, 1, 1)
	var dst snapshot.Sprites
	snapshot.Interpolate(&dst, p, c, 0.5)
	if dst.X[0] != 40 {
		t.Fatalf("paired sprite at %v, want 40", dst.X[0])
	}
	p, c = pair(20, 60, 1, 2) // teleported
	for a := float32(0); a <= 1; a += 0.125 {
		snapshot.Interpolate(&dst, p, c, a)
		if dst.X[0] != 60 {
			t.Fatalf("teleported sprite drawn at %v at alpha %v, want 60", dst.X[0], a)
		}
	}
	// A sprite that did not exist in prev snaps too.
	c.Sprites.Resize(2)
	c.Sprites.Set(1, 8, 0, 99, 0, 0, 0, snapshot.White)
	snapshot.Interpolate(&dst, p, c, 0.5)
	if dst.Len() != 2 || dst.X[1] != 99 || paired(p, c, 1) {
		t.Fatalf("new sprite: %v", dst.X)
	}
}

func TestCameraLerp(t *testing.T) {
	a := snapshot.Camera{X: 0, Y: 0, Zoom: 1, Gen: 3}
	b := snapshot.Camera{X: 100, Y: -50, Zoom: 2, Gen: 3}
	if got := a.Lerp(b, 0.5); got != (snapshot.Camera{X: 50, Y: -25, Zoom: 1.5, Gen: 3}) {
		t.Fatalf("camera lerp %+v", got)
	}
	b.Gen = 4
	if got := a.Lerp(b, 0.1); got != b {
		t.Fatalf("camera cut slid: %+v", got)
	}
}

// testSim moves one sprite one pixel per tick.
type testSim struct{ x float32 }

func (s *testSim) Step(simthread.TickInput) { s.x++ }
func (s *testSim) Publish(dst *snapshot.Snapshot) {
	dst.Sprites.Resize(1)
	dst.Sprites.Set(0, 1, 0, s.x, 0, 0, 0, snapshot.White)
	dst.Camera = snapshot.Camera{X: s.x, Zoom: 1}
}
func (s *testSim) Hash() uint64 { return uint64(s.x) }

func TestDisplayedTimeNeverGoesBack(t *testing.T) {
	// Frames at random intervals, so that zero, one or several ticks land
	// between two frames, with pauses, single steps and time-scale changes:
	// the sim time shown, and the sprite's drawn position, never go back.
	for seed := uint64(1); seed <= 5; seed++ {
		rng := rand.New(rand.NewPCG(seed, 0))
		sim := &testSim{}
		r, err := simthread.New(sim, simthread.Config{Hz: 60, Clock: simthread.NewFakeClock(0)})
		if err != nil {
			t.Fatal(err)
		}
		var ip snapshot.Interpolator
		var dst snapshot.Sprites
		now, lastSim, lastX := int64(0), int64(-1), float32(-1)
		landed := map[int]int{}
		for f := range 3000 {
			now += rng.Int64N(60_000_000) + 1 // 0 to 3 ticks per frame
			switch rng.IntN(100) {
			case 0:
				r.Push(simthread.Event{Time: now, Kind: simthread.EventTogglePause})
			case 1:
				r.Push(simthread.Event{Time: now, Kind: simthread.EventStep})
			case 2:
				r.Push(simthread.Event{Time: now, Kind: simthread.EventScale, Scale: simthread.Scales[rng.IntN(len(simthread.Scales))]})
			}
			landed[r.RunDue(now)]++
			prev, curr, _ := r.Ring().Acquire()
			v := ip.View(prev, curr, now)
			snapshot.Interpolate(&dst, prev, curr, v.Alpha)
			if v.SimTime < lastSim || dst.X[0] < lastX {
				t.Fatalf("seed %d frame %d: shown time %d after %d, x %v after %v", seed, f, v.SimTime, lastSim, dst.X[0], lastX)
			}
			lastSim, lastX = v.SimTime, dst.X[0]
		}
		if landed[0] == 0 || landed[1] == 0 || landed[3] == 0 {
			t.Fatalf("seed %d: frames by ticks landed %v: want 0, 1 and 3 covered", seed, landed)
		}
		if ip.Held != 0 {
			t.Errorf("seed %d: the guard held the time %d times; the schedule should never need it", seed, ip.Held)
		}
	}
}

func BenchmarkInterpolate100k(b *testing.B) {
	p, c := &snapshot.Snapshot{}, &snapshot.Snapshot{}
	p.Sprites.Resize(benchSprites)
	c.Sprites.Resize(benchSprites)
	for i := range benchSprites {
		p.Sprites.Set(i, uint32(i), 0, float32(i), 1, 0.1, 0, snapshot.White)
		c.Sprites.Set(i, uint32(i), uint32(i%1000/999), float32(i)+3, 2, 6.2, 0, snapshot.White)
	}
	var dst snapshot.Sprites
	snapshot.Interpolate(&dst, p, c, 0.5)
	b.ReportAllocs()
	for b.Loop() {
		snapshot.Interpolate(&dst, p, c, 0.37)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchSprites, "ns/sprite")
}

func ExampleAlpha() {
	prev := &snapshot.Snapshot{Tick: 1, Time: 0, Next: 16_666_666}
	curr := &snapshot.Snapshot{Tick: 2, Time: 16_666_666, Next: 33_333_333}
	for _, now := range []int64{16_666_666, 25_000_000, 33_333_333, 40_000_000} {
		fmt.Printf("%.2f\n", snapshot.Alpha(prev, curr, now, 0))
	}
	// Output:
	// 0.00
	// 0.50
	// 1.00
	// 1.00
}

func ExampleLerpAngle() {
	from, to := float32(350*math.Pi/180), float32(10*math.Pi/180)
	mid := snapshot.LerpAngle(from, to, 0.5)
	fmt.Printf("%.1f°\n", math.Mod(float64(mid)*180/math.Pi, 360))
	// Output: 0.0°
}

func TestInterpolatorDelayAndOverdue(t *testing.T) {
	p, c := pair(0, 10, 0, 0) // curr due at 2000, its successor at 3000
	var ip snapshot.Interpolator
	if v := ip.View(p, c, 2500); v.Alpha != 0.5 || v.Overdue {
		t.Fatalf("no delay at 2500: %+v", v)
	}
	if v := ip.View(p, c, 3100); v.Alpha != 1 || !v.Overdue {
		t.Fatalf("successor 100 late: %+v, want alpha 1 and overdue", v)
	}
	ip = snapshot.Interpolator{Delay: 200}
	if v := ip.View(p, c, 2700); v.Alpha != 0.5 {
		t.Fatalf("200 ns delay at 2700: alpha %v, want 0.5", v.Alpha)
	}
	if v := ip.View(p, c, 3100); v.Alpha != 0.9 || v.Overdue {
		t.Fatalf("a successor 100 late is covered by a 200 delay: %+v", v)
	}
	c.Paused, c.Next = true, c.Time
	if v := ip.View(p, c, 9000); v.Overdue || v.Alpha != 1 {
		t.Fatalf("paused: %+v", v)
	}
}

func TestPairReachesBack(t *testing.T) {
	// Ticks due every 10 ms, each published 1 ms late; the frames show the
	// world 4 ms in the past. Right after a snapshot arrives, the moment
	// shown is still before it is due: the frame must blend the pair
	// before it, and the sim time shown must move on evenly (never hold).
	const tick = 10_000_000
	mk := func(k int64) *snapshot.Snapshot {
		return &snapshot.Snapshot{Tick: uint64(k), SimTime: k * tick, Time: (k - 1) * tick, Next: k * tick, Published: (k-1)*tick + 1_000_000}
	}
	ip := snapshot.Interpolator{Delay: 4_000_000}
	var last int64 = -1
	for now := int64(4 * tick); now < 7*tick; now += 1_000_000 {
		k := (now-1_000_000)/tick + 1 // the newest snapshot published by now
		h := [snapshot.History]*snapshot.Snapshot{mk(k - 3), mk(k - 2), mk(k - 1), mk(k)}
		a, b := snapshot.Pair(h, now-ip.Delay)
		v := ip.View(a, b, now)
		if want := now - ip.Delay; v.SimTime != want {
			t.Fatalf("now %d: shows sim time %d, want %d (pair %d,%d)", now, v.SimTime, want, a.Tick, b.Tick)
		}
		if v.SimTime <= last {
			t.Fatalf("now %d: sim time %d did not advance past %d", now, v.SimTime, last)
		}
		last = v.SimTime
	}
	if ip.Held != 0 {
		t.Fatalf("held %d frames", ip.Held)
	}
	// With only the pair, the same moment holds at prev: alpha clamps at 0.
	now := int64(3*tick + 2_000_000)
	var ip2 snapshot.Interpolator
	ip2.Delay = 4_000_000
	if v := ip2.View(mk(3), mk(4), now); v.SimTime != 3*tick {
		t.Fatalf("without the history: sim time %d, want held at %d", v.SimTime, 3*tick)
	}
	// Never across a pause or a gap in the ticks.
	paused := mk(4)
	paused.Paused = true
	h := [snapshot.History]*snapshot.Snapshot{mk(1), mk(2), mk(3), paused}
	if a, _ := snapshot.Pair(h, 0); a.Tick != 3 {
		t.Fatalf("reached back across a pause to %d", a.Tick)
	}
	h = [snapshot.History]*snapshot.Snapshot{mk(1), mk(2), mk(5), mk(6)}
	if a, _ := snapshot.Pair(h, 0); a.Tick != 5 {
		t.Fatalf("reached back across a gap to %d", a.Tick)
	}
}

func TestShowCatchesUpEvenly(t *testing.T) {
	// Ticks every 10 ms, each published 1 ms after it is due, except that
	// the sim stalls from 100 ms to 125 ms and then publishes the ticks it
	// owes at once. Frames every 4 ms show the world 5 ms in the past.
	// With CatchUp the picture holds during the stall, then moves on at
	// most 1.25 times real speed until it is back on schedule: no frame
	// jumps, none goes back.
	const tick, delay, frame = 10_000_000, 5_000_000, 4_000_000
	var snaps []*snapshot.Snapshot
	for k := int64(1); k <= 60; k++ {
		due := (k - 1) * tick
		pub := due + 1_000_000
		if due >= 100_000_000 && due < 125_000_000 {
			pub = 126_000_000
		}
		snaps = append(snaps, &snapshot.Snapshot{Tick: uint64(k), SimTime: k * tick, Time: due, Next: due + tick, Published: pub, TimeScale: 1})
	}
	history := func(now int64) (h [snapshot.History]*snapshot.Snapshot) {
		n := 0
		for n < len(snaps) && snaps[n].Published <= now {
			n++
		}
		for i := range h {
			h[i] = snaps[max(n-snapshot.History+i, 0)]
		}
		return h
	}
	run := func(catchUp float64) (maxStep int64, eased int, backAt int64) {
		ip := snapshot.Interpolator{Delay: delay, CatchUp: catchUp}
		var last int64 = -1
		for now := int64(50_000_000); now < 560_000_000; now += frame {
			v, a, b := ip.Show(history(now), now)
			if a != b && a.Tick+1 != b.Tick {
				t.Fatalf("now %d: pair %d,%d not consecutive", now, a.Tick, b.Tick)
			}
			if last >= 0 {
				if v.SimTime < last {
					t.Fatalf("now %d: sim time went back %d ns", now, last-v.SimTime)
				}
				maxStep = max(maxStep, v.SimTime-last)
			}
			if v.SimTime == now-delay && now > 126_000_000 && backAt == 0 {
				backAt = now
			}
			last = v.SimTime
		}
		return maxStep, ip.Eased, backAt
	}
	step, eased, back := run(0.25)
	if step > frame*5/4+1 {
		t.Fatalf("with CatchUp: a frame moved %d ns, more than 1.25 frames", step)
	}
	if eased == 0 || back == 0 || back > 126_000_000+150_000_000 {
		t.Fatalf("eased %d frames, back on schedule at %d ms", eased, back/1e6)
	}
	if step, _, _ := run(0); step < 20_000_000 {
		t.Fatalf("without CatchUp the picture should jump after the stall; its largest step was %d ns", step)
	}
}

// paired reports whether slot i of curr blends from prev.
func paired(prev, curr *snapshot.Snapshot, i int) bool {
	_, ok := snapshot.PrevSlot(prev, curr, i)
	return ok
}

func TestPrevSlotAfterLayerGrowth(t *testing.T) {
	// A lower layer grew from 2 slots to 4 between the snapshots, so the
	// upper layer's sprites (IDs from 1<<24) start 2 slots further on:
	// they still blend from their own prev slots, found by ID, and a
	// new slot of the grown layer has none.
	const up = 1 << 24
	var p, c snapshot.Snapshot
	p.Sprites.Resize(4)
	p.Sprites.Set(0, 0, 0, 10, 0, 0, 0, snapshot.White)
	p.Sprites.Set(1, 1, 0, 20, 0, 0, 0, snapshot.White)
	p.Sprites.Set(2, up, 0, 100, 0, 0, 0, snapshot.White)
	p.Sprites.Set(3, up+1, 7, 200, 0, 0, 0, snapshot.White)
	c.Sprites.Resize(6)
	c.Sprites.Set(0, 0, 0, 12, 0, 0, 0, snapshot.White)
	c.Sprites.Set(1, 1, 0, 22, 0, 0, 0, snapshot.White)
	c.Sprites.Set(2, 2, 0, 30, 0, 0, 0, snapshot.White)
	c.Sprites.Set(3, 3, 0, 0, 0, 0, 0, 0)
	c.Sprites.Set(4, up, 0, 110, 0, 0, 0, snapshot.White)
	c.Sprites.Set(5, up+1, 8, 260, 0, 0, 0, snapshot.White) // teleported: a new Gen
	for i, want := range []struct {
		j  int
		ok bool
	}{{0, true}, {1, true}, {0, false}, {0, false}, {2, true}, {0, false}} {
		if j, ok := snapshot.PrevSlot(&p, &c, i); ok != want.ok || (ok && j != want.j) {
			t.Errorf("slot %d: PrevSlot %d, %v; want %d, %v", i, j, ok, want.j, want.ok)
		}
	}
	var dst snapshot.Sprites
	snapshot.Interpolate(&dst, &p, &c, 0.5)
	for i, want := range []float32{11, 21, 30, 0, 105, 260} {
		if dst.X[i] != want {
			t.Errorf("slot %d drawn at %v, want %v", i, dst.X[i], want)
		}
	}
}
