package snapshot

import (
	"math"
	"slices"
)

// Lerp returns a + (b-a)*t. The product is rounded explicitly so that no
// fused multiply-add changes the result from one machine to another.
func Lerp(a, b, t float32) float32 { return float32((b-a)*t) + a }

// LerpAngle blends two angles in radians along the shorter arc: from 350°
// to 10° it passes through 0°, not 180°. The result is not normalised.
func LerpAngle(a, b, t float32) float32 {
	const twoPi = 2 * math.Pi
	d := b - a
	if d > math.Pi || d < -math.Pi {
		// Wrap to [-π, π]: the common case (a small turn) skips this.
		k := float32(math.Floor(float64(float32(d*(1/twoPi)) + 0.5)))
		d -= float32(k * twoPi)
	}
	return float32(d*t) + a
}

// Lerp blends the camera from c to `to`. When the cameras' generations
// differ (the camera jumped) it returns `to`: a cut, never a slide.
func (c Camera) Lerp(to Camera, alpha float32) Camera {
	if c.Gen != to.Gen {
		return to
	}
	return Camera{
		X:    Lerp(c.X, to.X, alpha),
		Y:    Lerp(c.Y, to.Y, alpha),
		Zoom: Lerp(c.Zoom, to.Zoom, alpha),
		Gen:  to.Gen,
	}
}

// PrevSlot returns the slot of prev that holds the sprite of curr's slot
// i, to interpolate from, and whether there is one: a slot with the same
// ID and Gen. Usually that is slot i itself. When the slots before it
// moved (a lower draw layer grew between the two snapshots, and the
// layers above it start further on), it is found by ID, as the IDs of a
// snapshot's slots increase with the slot (tandem's World publishes them
// so). A sprite with none snaps to its state in curr.
func PrevSlot(prev, curr *Snapshot, i int) (int, bool) {
	if p := prev.Sprites.ID; i < len(p) && p[i] == curr.Sprites.ID[i] {
		return i, prev.Sprites.Gen[i] == curr.Sprites.Gen[i]
	}
	return prevSlotByID(&prev.Sprites, &curr.Sprites, i)
}

// prevSlotByID is PrevSlot's search, kept out of its inlined fast path.
func prevSlotByID(p, c *Sprites, i int) (int, bool) {
	j, found := slices.BinarySearch(p.ID, c.ID[i])
	if !found || p.Gen[j] != c.Gen[i] {
		return 0, false
	}
	return j, true
}

// Alpha returns how far the display at time now is from prev to curr: 0
// shows prev, 1 shows curr. It is computed from the snapshots' timestamps,
// not from an accumulator: curr becomes the displayed target when it is due
// (curr.Time) and is reached fully when its successor is due (curr.Next),
// so the picture runs one tick behind the simulation and never has to
// guess.
//
// The result is clamped to [0, 1+maxExtrapolate]. maxExtrapolate = 0 (the
// default everywhere) never draws a state the simulation has not computed;
// a positive value lets a late snapshot be extrapolated by up to that
// fraction of a tick. A paused curr (Next <= Time) gives 1.
func Alpha(prev, curr *Snapshot, now int64, maxExtrapolate float64) float64 {
	if prev == curr || curr.Next <= curr.Time {
		return 1
	}
	a := float64(now-curr.Time) / float64(curr.Next-curr.Time)
	return min(max(a, 0), 1+maxExtrapolate)
}

// View is what a frame draws: the blend factor, the interpolated camera and
// the simulated time on screen.
type View struct {
	// Alpha is the blend factor between prev (0) and curr (1) the frame
	// draws with; above 1 only when extrapolation is on.
	Alpha float32
	// SimTime is the simulated time shown, in nanoseconds.
	SimTime int64
	// Camera is the interpolated camera.
	Camera Camera
	// Age is how old the newest snapshot is: now - curr.Published.
	Age int64
	// Overdue reports whether curr's successor was due and has not
	// arrived: the frame holds curr still (or extrapolates it). A few in a
	// row is a visible hitch.
	Overdue bool
}

// Interpolator turns the newest snapshot pair into a View once per frame,
// guaranteeing that the simulated time shown never goes backwards. The zero
// value is ready to use, with extrapolation off.
//
// Render thread only (it keeps the last time shown).
type Interpolator struct {
	// MaxExtrapolate is how far past curr, in ticks, a late frame may
	// extrapolate. 0, the default, clamps alpha to [0, 1].
	MaxExtrapolate float64
	// Snap turns interpolation off: every frame shows curr as it is
	// (alpha 1), as a loop without interpolation does. The bench uses it to
	// measure the stutter interpolation removes.
	Snap bool
	// Delay shows the world this many nanoseconds further in the past, so
	// that a tick that starts up to Delay late (a sim thread kept off the
	// CPU for a moment) still publishes before the frames need it. It adds
	// Delay to the latency. 0, the default, shows curr fully exactly when
	// its successor is due.
	Delay int64

	// CatchUp, when positive, eases the picture back onto its schedule
	// after a stall ([Interpolator.Show]): the shown sim time moves on at
	// most 1+CatchUp times the speed of the sim's schedule, so a picture
	// that held still for 30 ms catches up over 30/CatchUp ms instead of
	// jumping 30 ms in one frame. 0 jumps.
	CatchUp float64
	// Eased counts frames that [Interpolator.Show] slowed down to catch up
	// evenly.
	Eased int

	shown   int64 // the SimTime of the last View
	lastNow int64 // the time of the last Show
	started bool
	// Held counts frames in which the monotonicity guard had to hold the
	// displayed time still (the schedule moved backwards: a time-scale
	// change, a resume). It stays 0 in steady state; tests read it.
	Held int
}

// Pair returns the two snapshots of h (a [Ring.History], oldest first) a
// frame shows the moment t from: the newest pair as a rule, or an older
// one when t falls before the newer snapshot is due. That happens whenever
// the delay is longer than a snapshot was late: with the newest pair
// alone, such a frame would hold still until it is due, a stutter once a
// tick. It never reaches back across a pause, a repeated snapshot or one
// that is not its successor's predecessor on the schedule.
func Pair(h [History]*Snapshot, t int64) (a, b *Snapshot) {
	j := History - 1
	for j > 1 && t < h[j].Time && !h[j].Paused && reachBack(h[j-2], h[j-1]) {
		j--
	}
	return h[j-1], h[j]
}

// reachBack reports whether (a, b) is a pair a frame may reach back to: b
// follows a on the schedule, tick after tick, neither paused.
func reachBack(a, b *Snapshot) bool {
	return a != nil && a != b && !b.Paused && a.Next > a.Time && a.Tick+1 == b.Tick
}

// View returns the view for a frame drawn at time now from the pair
// (prev, curr) returned by [Ring.Acquire] or [Interpolator.Pair]. Both
// must be non-nil.
func (ip *Interpolator) View(prev, curr *Snapshot, now int64) View {
	t := now - ip.Delay
	a := Alpha(prev, curr, t, ip.MaxExtrapolate)
	if ip.Snap {
		a = 1
	}
	span := curr.SimTime - prev.SimTime
	sim := prev.SimTime + int64(float64(span)*a)
	if ip.started && sim < ip.shown {
		// Never show an earlier moment than the last frame did. Hold the
		// time still at the last one shown by raising alpha, if the pair
		// reaches that far; the pair cannot be older than what was shown
		// unless the reader went back, which Acquire never does.
		ip.Held++
		sim = ip.shown
		if span > 0 {
			a = float64(sim-prev.SimTime) / float64(span)
		}
	}
	ip.shown, ip.started = sim, true
	return View{
		Alpha:   float32(a),
		SimTime: sim,
		Camera:  prev.Camera.Lerp(curr.Camera, float32(a)),
		Age:     now - curr.Published,
		Overdue: !curr.Paused && curr.Next > curr.Time && t > curr.Next,
	}
}

// Show is the whole choice of a frame at time now from h, the reader's
// history ([Ring.History], oldest first): the pair the moment now - Delay
// falls in ([Pair]), the view ([Interpolator.View]), and, with CatchUp,
// an even catch-up after a stall: when the moment due is further ahead of
// the last one shown than the schedule moved times 1+CatchUp, the frame
// shows that limit instead, from the older pair it falls in (as far back
// as h reaches). It returns the view and the pair it blends (the sprite
// batch must hold that pair).
func (ip *Interpolator) Show(h [History]*Snapshot, now int64) (v View, a, b *Snapshot) {
	a, b = Pair(h, now-ip.Delay)
	shown, started, lastNow := ip.shown, ip.started, ip.lastNow
	v = ip.View(a, b, now)
	ip.lastNow = now
	if ip.CatchUp <= 0 || ip.Snap || !started || now <= lastNow {
		return v, a, b
	}
	rate := scheduleRate(a, b)
	if rate <= 0 {
		return v, a, b
	}
	limit := shown + int64(float64(now-lastNow)*rate*(1+ip.CatchUp))
	if v.SimTime <= limit {
		return v, a, b
	}
	// Behind after a stall: the pair holding the limit, as far back as
	// the history goes.
	j := History - 1
	for h[j] != b {
		j--
	}
	for j > 1 && limit < h[j-1].SimTime && !h[j].Paused && reachBack(h[j-2], h[j-1]) {
		j--
	}
	a, b = h[j-1], h[j]
	sim := max(limit, a.SimTime)
	alpha := 1.0
	if span := b.SimTime - a.SimTime; span > 0 {
		alpha = float64(sim-a.SimTime) / float64(span)
	}
	ip.shown = sim
	ip.Eased++
	v.Alpha, v.SimTime, v.Camera = float32(alpha), sim, a.Camera.Lerp(b.Camera, float32(alpha))
	return v, a, b
}

// scheduleRate returns how many sim nanoseconds the schedule moves per
// wall nanosecond between a and b (1 in real time), or 0 when the pair
// does not say.
func scheduleRate(a, b *Snapshot) float64 {
	if b.Time <= a.Time || b.SimTime <= a.SimTime {
		return 0
	}
	return float64(b.SimTime-a.SimTime) / float64(b.Time-a.Time)
}

// Interpolate writes into dst the sprites of curr blended from prev by
// alpha, the same computation the GPU does in the sprite shader: positions
// lerp, angles take the shorter arc, and a slot with no [PrevSlot] snaps
// to curr. It reuses dst's storage: no allocation once dst has grown to
// size.
func Interpolate(dst *Sprites, prev, curr *Snapshot, alpha float32) {
	c := &curr.Sprites
	n := c.Len()
	dst.Resize(n)
	copy(dst.ID, c.ID)
	copy(dst.Gen, c.Gen)
	copy(dst.Frame, c.Frame)
	copy(dst.Tint, c.Tint)
	copy(dst.Scale, c.Scale)
	p := &prev.Sprites
	m := min(n, p.Len())
	// Tight loop over the common prefix; bounds checks hoisted by reslicing.
	px, py, pa := p.X[:m], p.Y[:m], p.Angle[:m]
	cx, cy, ca := c.X[:m], c.Y[:m], c.Angle[:m]
	pid, pgen, cid, cgen := p.ID[:m], p.Gen[:m], c.ID[:m], c.Gen[:m]
	dx, dy, da := dst.X[:m], dst.Y[:m], dst.Angle[:m]
	moved := false // a slot whose sprite is elsewhere in prev
	for i := range m {
		if pid[i] != cid[i] || pgen[i] != cgen[i] {
			dx[i], dy[i], da[i] = cx[i], cy[i], ca[i]
			moved = moved || pid[i] != cid[i]
			continue
		}
		dx[i] = float32((cx[i]-px[i])*alpha) + px[i]
		dy[i] = float32((cy[i]-py[i])*alpha) + py[i]
		da[i] = LerpAngle(pa[i], ca[i], alpha)
	}
	// Scale blends like the shader's (0 counts as 1).
	ps, ds := p.Scale[:m], dst.Scale[:m]
	for i := range m {
		if pid[i] == cid[i] && pgen[i] == cgen[i] && ps[i] != ds[i] {
			a, b := one(ps[i]), one(ds[i])
			ds[i] = float32((b-a)*alpha) + a
		}
	}
	copy(dst.X[m:], c.X[m:])
	copy(dst.Y[m:], c.Y[m:])
	copy(dst.Angle[m:], c.Angle[m:])
	if !moved && n <= m {
		return
	}
	// Slots whose sprites moved (a lower layer grew), or past prev's end:
	// pair them by ID, one at a time.
	for i := range n {
		if i < m && pid[i] == cid[i] {
			continue
		}
		j, ok := PrevSlot(prev, curr, i)
		if !ok {
			continue
		}
		dst.X[i], dst.Y[i] = Lerp(p.X[j], c.X[i], alpha), Lerp(p.Y[j], c.Y[i], alpha)
		dst.Angle[i] = LerpAngle(p.Angle[j], c.Angle[i], alpha)
		if a, b := one(p.Scale[j]), one(c.Scale[i]); a != b {
			dst.Scale[i] = Lerp(a, b, alpha)
		}
	}
}

// one returns a scale with 0 counted as 1.
func one(s float32) float32 {
	if s == 0 {
		return 1
	}
	return s
}
