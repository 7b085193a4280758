package snapshot

// Camera is the view of the world a snapshot is drawn with. X and Y are the
// world position, in pixels, at the centre of the screen; Zoom is screen
// pixels per world pixel (1 draws the world at its native size).
type Camera struct {
	X, Y float32
	Zoom float32
	// Gen changes when the camera jumps (a respawn, a scene change): the
	// renderer then snaps to the new camera instead of sliding to it.
	Gen uint32
}

// Sprites holds the sprites of a snapshot as parallel arrays
// (structure-of-arrays), so that a loop over one field touches only that
// field and the renderer can upload whole arrays.
//
// Invariant: every slice has the same length, Len().
//
// Index i is the sprite's slot. The writer keeps slots stable from tick to
// tick: interpolation pairs sprite i of one snapshot with sprite i of the
// next, and only when both ID and Gen agree. A sprite that is spawned,
// teleported or respawned gets a new Gen and is drawn at its new state at
// once, never slid across the screen. To hide a sprite without shifting the
// slots after it, give it a Tint with zero alpha.
type Sprites struct {
	ID    []uint32  // entity id of the slot's occupant
	Gen   []uint32  // generation: changes when the sprite must snap
	X, Y  []float32 // centre, in world pixels (y grows down)
	Angle []float32 // rotation about the centre, radians
	Frame []uint16  // index into the renderer's frame table (atlas region, size)
	Tint  []uint32  // RGBA8 multiplier, R in the low byte (0xFFFFFFFF draws as is)
	Scale []float32 // size multiplier of the frame; 0 draws it at 1
}

// Len returns the number of sprites.
func (s *Sprites) Len() int { return len(s.ID) }

// Resize sets the number of sprites to n, keeping the storage: it allocates
// only when n exceeds every earlier size. The contents of slots that were
// not there before are unspecified; the writer fills every slot.
func (s *Sprites) Resize(n int) {
	s.ID = resize(s.ID, n)
	s.Gen = resize(s.Gen, n)
	s.X = resize(s.X, n)
	s.Y = resize(s.Y, n)
	s.Angle = resize(s.Angle, n)
	s.Frame = resize(s.Frame, n)
	s.Tint = resize(s.Tint, n)
	s.Scale = resize(s.Scale, n)
}

// Set writes slot i, at scale 1.
func (s *Sprites) Set(i int, id, gen uint32, x, y, angle float32, frame uint16, tint uint32) {
	s.ID[i], s.Gen[i] = id, gen
	s.X[i], s.Y[i], s.Angle[i] = x, y, angle
	s.Frame[i], s.Tint[i], s.Scale[i] = frame, tint, 0
}

func resize[T any](s []T, n int) []T {
	if n <= cap(s) {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)
}

// White is the Tint that draws a sprite as it is in the atlas.
const White uint32 = 0xFFFFFFFF

// Snapshot is the state of the world after one tick, as the renderer needs
// it. Times are on the [Now] time base.
type Snapshot struct {
	// Tick is the number of ticks stepped to produce this state (1 for the
	// state after the first tick).
	Tick uint64
	// SimTime is the simulated time of this state: Tick fixed steps, in
	// nanoseconds (exact: Tick*1e9/hz rounded down).
	SimTime int64
	// Time is when this state is due on the monotonic time base: the
	// scheduled wall time of the tick that produced it. Next is when the
	// following state is due. The renderer shows this state fully at Next;
	// Next <= Time means no successor is scheduled (paused), and the state
	// is shown as it is.
	Time, Next int64
	// Published is when the snapshot was actually handed to the renderer;
	// Published - Time is how late the sim thread was.
	Published int64
	// TimeScale is sim seconds per wall second over the last second: 1 in
	// real time, below 1 in slow motion (chosen, or forced by overload),
	// 0 while paused.
	TimeScale float64
	// Paused reports whether the sim was paused when this was published.
	Paused bool

	Camera  Camera
	Sprites Sprites

	// Probe is the x of the bench's probe, in pixels, unwrapped: it moves
	// right at a fixed speed in sim time, and the renderer wraps it at the
	// framebuffer's right edge. It is interpolated like a sprite's x.
	Probe float64
	// ProbeHeld reports whether the bench's button was down in the state:
	// the probe is drawn cyan then, so that a camera or a read-back can
	// time an input from the pixels.
	ProbeHeld bool

	// StateHash is the world's hash when the sim publishes it (periodic or
	// on request); zero when not computed for this tick.
	StateHash uint64

	// Text is the game's own text for this state, drawn over the sprites
	// in screen pixels: Lines index Chars.
	Text Text

	// Sounds are the sounds the tick played and stopped: the mixer starts
	// each at the tick's Time plus the run's offset. They are part of the
	// tick's output, not of the game's state.
	Sounds Sounds

	// Draw is what the tick drew besides sprites: shapes, text in the
	// game's fonts, shader uniforms. Output, like Sounds.
	Draw Draw
}

// MaxSounds is how many sound events one tick can publish; the world
// counts the ones past it (the summary's audio_plays_dropped).
const MaxSounds = 16

// Sounds is a tick's sound events, in a fixed array so that publishing
// and copying them allocates nothing.
type Sounds struct {
	N    int
	List [MaxSounds]SoundEvent
}

// SoundEvent is one sound event of a tick. Op: 1 play, 2 stop, 3 music,
// 4 music off (audio.Op's values).
type SoundEvent struct {
	Op     uint8
	Sound  uint16  // the sound, in the order Setup declared them
	Voice  uint32  // the voice's handle: what a stop names
	Volume float32 // 1: as recorded
	Pan    float32 // -1 left, 0 centre, 1 right
}

// Add appends e and reports false, adding nothing, when the tick has
// MaxSounds already.
func (s *Sounds) Add(e SoundEvent) bool {
	if s.N >= MaxSounds {
		return false
	}
	s.List[s.N] = e
	s.N++
	return true
}

// Text is a game's lines of text in a snapshot. Its slices are reused from
// snapshot to snapshot: the writer resets them with Reset.
type Text struct {
	Lines []TextLine
	Chars []byte
}

// TextLine is one line: its top-left corner in framebuffer pixels, its
// tint (RGBA8, R in the low byte) and its bytes, Chars[From:To].
type TextLine struct {
	X, Y     int32
	Tint     uint32
	From, To int32
}

// Reset empties t, keeping its storage.
func (t *Text) Reset() {
	t.Lines, t.Chars = t.Lines[:0], t.Chars[:0]
}

// reserve makes room for n more chars and one more line, growing to at
// least 256 chars and 16 lines at once, so that text whose length changes
// a little from tick to tick (a score) stops allocating at once.
func (t *Text) reserve(n int) {
	if len(t.Chars)+n > cap(t.Chars) {
		c := make([]byte, len(t.Chars), max(256, 2*(len(t.Chars)+n)))
		copy(c, t.Chars)
		t.Chars = c
	}
	if len(t.Lines) == cap(t.Lines) {
		l := make([]TextLine, len(t.Lines), max(16, 2*len(t.Lines)))
		copy(l, t.Lines)
		t.Lines = l
	}
}

// Add appends a line. It allocates only when t holds more than it ever
// held before.
func (t *Text) Add(x, y int32, tint uint32, s string) {
	t.reserve(len(s))
	from := int32(len(t.Chars))
	t.Chars = append(t.Chars, s...)
	t.Lines = append(t.Lines, TextLine{X: x, Y: y, Tint: tint, From: from, To: int32(len(t.Chars))})
}

// AddBytes is Add for bytes: it keeps a copy.
func (t *Text) AddBytes(x, y int32, tint uint32, b []byte) {
	t.reserve(len(b))
	from := int32(len(t.Chars))
	t.Chars = append(t.Chars, b...)
	t.Lines = append(t.Lines, TextLine{X: x, Y: y, Tint: tint, From: from, To: int32(len(t.Chars))})
}

// CopyFrom makes t a copy of src, reusing t's storage.
func (t *Text) CopyFrom(src *Text) {
	t.Reset()
	if len(src.Lines) == 0 {
		return
	}
	t.reserve(len(src.Chars))
	t.Chars = append(t.Chars, src.Chars...)
	if len(src.Lines) > cap(t.Lines) {
		t.Lines = make([]TextLine, 0, max(16, len(src.Lines)))
	}
	t.Lines = append(t.Lines, src.Lines...)
}

// CopyFrom makes s a deep copy of src, reusing s's storage.
func (s *Snapshot) CopyFrom(src *Snapshot) {
	sp, text, draw := s.Sprites, s.Text, s.Draw
	*s = *src
	s.Sprites, s.Text, s.Draw = sp, text, draw
	s.Text.CopyFrom(&src.Text)
	s.Draw.CopyFrom(&src.Draw)
	n := src.Sprites.Len()
	s.Sprites.Resize(n)
	copy(s.Sprites.ID, src.Sprites.ID)
	copy(s.Sprites.Gen, src.Sprites.Gen)
	copy(s.Sprites.X, src.Sprites.X)
	copy(s.Sprites.Y, src.Sprites.Y)
	copy(s.Sprites.Angle, src.Sprites.Angle)
	copy(s.Sprites.Frame, src.Sprites.Frame)
	copy(s.Sprites.Tint, src.Sprites.Tint)
	copy(s.Sprites.Scale, src.Sprites.Scale)
}
