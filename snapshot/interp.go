package snapshot

import "math"

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

// Paired reports whether slot i of curr has a predecessor in prev to
// interpolate from: the slot exists in prev and holds the same ID and Gen.
// A sprite that is not paired snaps to its state in curr.
func Paired(prev, curr *Snapshot, i int) bool {
	p, c := &prev.Sprites, &curr.Sprites
	return i < p.Len() && p.ID[i] == c.ID[i] && p.Gen[i] == c.Gen[i]
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

	shown   int64 // the SimTime of the last View
	started bool
	// Held counts frames in which the monotonicity guard had to hold the
	// displayed time still (the schedule moved backwards: a time-scale
	// change, a resume). It stays 0 in steady state; tests read it.
	Held int
}

// Pair returns the two snapshots a frame at time now blends: (prev, curr)
// as a rule, or (older, prev) when the frame's moment, now - Delay, falls
// before curr is due. That happens whenever the delay is longer than curr
// was late: without the older pair, such a frame would have to hold prev
// still until curr's due time, a stutter once a tick. older is
// [Ring.Older]; nil is allowed.
func (ip *Interpolator) Pair(older, prev, curr *Snapshot, now int64) (a, b *Snapshot) {
	if older != nil && older != prev && prev != curr && !curr.Paused &&
		prev.Next > prev.Time && now-ip.Delay < curr.Time {
		return older, prev
	}
	return prev, curr
}

// Frame returns the view for a frame drawn at time now from the pair
// (prev, curr) returned by [Ring.Acquire] or [Interpolator.Pair]. Both
// must be non-nil.
func (ip *Interpolator) Frame(prev, curr *Snapshot, now int64) View {
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

// Interpolate writes into dst the sprites of curr blended from prev by
// alpha, the same computation the GPU does in the sprite shader: positions
// lerp, angles take the shorter arc, and a slot that is not [Paired] snaps
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
	p := &prev.Sprites
	m := min(n, p.Len())
	// Tight loop over the common prefix; bounds checks hoisted by reslicing.
	px, py, pa := p.X[:m], p.Y[:m], p.Angle[:m]
	cx, cy, ca := c.X[:m], c.Y[:m], c.Angle[:m]
	pid, pgen, cid, cgen := p.ID[:m], p.Gen[:m], c.ID[:m], c.Gen[:m]
	dx, dy, da := dst.X[:m], dst.Y[:m], dst.Angle[:m]
	for i := range m {
		if pid[i] != cid[i] || pgen[i] != cgen[i] {
			dx[i], dy[i], da[i] = cx[i], cy[i], ca[i]
			continue
		}
		dx[i] = float32((cx[i]-px[i])*alpha) + px[i]
		dy[i] = float32((cy[i]-py[i])*alpha) + py[i]
		da[i] = LerpAngle(pa[i], ca[i], alpha)
	}
	copy(dst.X[m:], c.X[m:])
	copy(dst.Y[m:], c.Y[m:])
	copy(dst.Angle[m:], c.Angle[m:])
}
