package tandem

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/tandem-engine/tandem/entity"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// World is what a game's Tick is handed: the tick's input, the entities
// and the camera. It belongs to the sim thread (the caller's, in the
// coupled loop); nothing in it draws, and the renderer sees only what it
// publishes after each tick. No method allocates once the entity tables
// have grown to the most entities alive at once.
type World struct {
	tick   uint64
	hz     int
	in     simthread.TickInput
	layers [Layers]entity.Table
	cam    Camera
	camGen uint32
	text   snapshot.Text
	frames int // the frames Setup made, white included; 0 while Setup runs
	// setupFrame is the highest frame spawned while Setup ran, checked
	// once Setup has made them all.
	setupFrame Frame

	// The tick's sound events: output, not state (no hash sees them).
	sounds   snapshot.Sounds
	nsounds  int    // the sounds Setup declared
	voiceSeq uint32 // the last Voice handed out
	// soundsDropped counts the sound calls that found their tick's
	// MaxSoundsPerTick taken: the summary's audio_plays_dropped.
	soundsDropped int64

	// What the tick drew besides sprites (draw.go, text.go, shader.go):
	// output, not state (no hash sees it).
	draw     snapshot.Draw
	anchors  []drawAnchor
	fonts    int       // the fonts Setup loaded, the default included
	uniforms []float32 // the shaders' uniforms, as the ticks last set them
	shaders  []shaderUniforms
	// owned reports that the world's owner is in it: the game's Setup or
	// Tick, on the sim thread. The sound calls check it, so that one made
	// from another goroutine (an Autoplay callback, a goroutine of the
	// game's) is a clear panic rather than a data race.
	owned atomic.Bool
	// guarded reports that the engine's loop runs the world (a Sim that a
	// test steps is its own goroutine's, between steps too).
	guarded bool
}

// Tick returns the number of the tick being stepped: 1 for the first.
func (w *World) Tick() uint64 { return w.tick }

// Hz returns the tick rate; a tick is 1/Hz seconds of sim time.
func (w *World) Hz() int { return w.hz }

// Dt returns the tick's length in seconds: 1/Hz.
func (w *World) Dt() float64 { return 1 / float64(w.hz) }

// Down reports whether the action is held during this tick.
func (w *World) Down(a Action) bool { return w.in.Down&a.bit() != 0 }

// Pressed reports whether the action went down since the last tick.
func (w *World) Pressed(a Action) bool { return w.in.Pressed&a.bit() != 0 }

// Released reports whether the action went up since the last tick.
func (w *World) Released(a Action) bool { return w.in.Released&a.bit() != 0 }

// Pointer returns the mouse cursor in world pixels, as the frame on
// screen when it moved showed the world (camera, zoom and bounds
// applied), and whether it has moved at all yet.
func (w *World) Pointer() (x, y float32, ok bool) {
	return w.in.PointerX, w.in.PointerY, w.in.HasPointer
}

// Axis returns gamepad axis i, from -1 to 1 (0 at rest and for an axis
// that does not exist): 0 and 1 are the left stick's x and y, 2 and 3 the
// right stick's, 4 and 5 the left and right triggers.
func (w *World) Axis(i int) float32 {
	if i < 0 || i >= len(w.in.Axes) {
		return 0
	}
	return w.in.Axes[i]
}

func (w *World) table(layer uint8) *entity.Table {
	return &w.layers[min(int(layer), Layers-1)]
}

// check panics on a sprite no frame table or layer holds: a bug in the
// game, not something a player can cause.
func (w *World) check(s Sprite) {
	if int(s.Layer) >= Layers {
		panic(fmt.Sprintf("tandem: sprite on layer %d: layers are 0 to %d", s.Layer, Layers-1))
	}
	if w.frames == 0 {
		w.setupFrame = max(w.setupFrame, s.Frame)
	}
	if w.frames > 0 && int(s.Frame) >= w.frames {
		panic(fmt.Sprintf("tandem: sprite of frame %d, past the %d frames Setup made", s.Frame, w.frames-1))
	}
}

func toEntity(s Sprite) entity.Sprite {
	tint := s.Tint
	if tint == 0 {
		tint = White
	}
	return entity.Sprite{X: s.X, Y: s.Y, Angle: s.Angle, Scale: s.Scale, Frame: uint16(s.Frame), Tint: tint}
}

// Spawn adds an entity that looks like s and returns its ID.
// A frame past the ones Setup made, or a layer past Layers, panics.
func (w *World) Spawn(s Sprite) ID {
	w.check(s)
	return ID{e: w.layers[s.Layer].Spawn(toEntity(s)), layer: s.Layer}
}

// Reserve makes room on layer for n entities in all, in Setup, so that a
// tick that spawns up to that many allocates nothing, and the renderer
// draws no more slots than that. Without it a layer's table doubles as it
// grows, allocating in that tick, and its free slots are drawn hidden.
// (The layers above it then start further on in the snapshot; their
// sprites still blend, paired by ID.)
func (w *World) Reserve(layer uint8, n int) { w.table(layer).Reserve(n) }

// Alive reports whether id names a living entity.
func (w *World) Alive(id ID) bool { return w.table(id.layer).Alive(id.e) }

// Get returns how the entity looks, and false for a dead ID.
func (w *World) Get(id ID) (Sprite, bool) {
	e, ok := w.table(id.layer).Get(id.e)
	if !ok {
		return Sprite{}, false
	}
	return Sprite{X: e.X, Y: e.Y, Angle: e.Angle, Scale: e.Scale, Frame: Frame(e.Frame), Tint: e.Tint, Layer: id.layer}, true
}

// Set changes how the entity looks (its layer stays the one it was
// spawned on); the renderer blends from how it looked at the last tick.
// It reports false, and changes nothing, for a dead ID.
func (w *World) Set(id ID, s Sprite) bool {
	s.Layer = id.layer
	w.check(s)
	return w.table(id.layer).Set(id.e, toEntity(s))
}

// Move moves the entity's centre to (x, y), blended from where it was.
func (w *World) Move(id ID, x, y float32) bool { return w.table(id.layer).Move(id.e, x, y) }

// Teleport moves the entity's centre to (x, y) at once: the renderer does
// not slide it there.
func (w *World) Teleport(id ID, x, y float32) bool { return w.table(id.layer).Teleport(id.e, x, y) }

// Despawn removes the entity: it is drawn no more from this tick on.
func (w *World) Despawn(id ID) bool { return w.table(id.layer).Despawn(id.e) }

// slots returns how many snapshot slots a publish writes.
func (w *World) slots() int {
	n := 0
	for k := range w.layers {
		n += w.layers[k].Slots()
	}
	return n
}

// Entities returns the number of entities alive.
func (w *World) Entities() int {
	n := 0
	for k := range w.layers {
		n += w.layers[k].Len()
	}
	return n
}

// SetCamera moves the camera; the renderer blends from where it was.
func (w *World) SetCamera(c Camera) { w.cam = c }

// CutCamera moves the camera at once, without blending (a respawn, a new
// room).
func (w *World) CutCamera(c Camera) {
	w.cam = c
	w.camGen++
}

// Text draws s on screen for this tick: at (x, y) framebuffer pixels
// from the top-left corner, in the HUD's font (ASCII), tinted (0 draws
// white). It lasts one tick: every tick starts with no text, so text that
// should stay up (a score, a "paused") is drawn again every tick, and text
// a tick does not draw is gone from that tick's pictures on. It allocates
// only when a tick holds more text than any before it. For text in a font
// of the game's own, any script, size and alignment, see [World.Print].
func (w *World) Text(x, y int, tint uint32, s string) {
	if tint == 0 {
		tint = White
	}
	w.text.Add(int32(x), int32(y), tint, s)
}

// TextBytes is Text for bytes, which it copies: a game that formats a
// figure each tick (strconv.AppendInt into a buffer of its own) draws it
// without allocating.
func (w *World) TextBytes(x, y int, tint uint32, b []byte) {
	if tint == 0 {
		tint = White
	}
	w.text.AddBytes(int32(x), int32(y), tint, b)
}

// Camera returns the camera.
func (w *World) Camera() Camera { return w.cam }

// publish writes the world into dst: the camera, then every layer's slots
// in layer order. A layer's sprite IDs start at layer<<24, so a slot's ID
// never changes.
func (w *World) publish(dst *snapshot.Snapshot) {
	zoom := w.cam.Zoom
	if zoom == 0 {
		zoom = 1
	}
	dst.Camera = snapshot.Camera{X: w.cam.X, Y: w.cam.Y, Zoom: zoom, Gen: w.camGen}
	dst.Sprites.Resize(w.slots())
	at := 0
	for k := range w.layers {
		at = w.layers[k].Publish(&dst.Sprites, at, uint32(k)<<24)
	}
	dst.Text.CopyFrom(&w.text)
	dst.Sounds = w.sounds
	w.publishDraw(&dst.Draw)
}

// hash folds the entities and the camera into word.
func (w *World) hash(word func(uint64)) {
	for k := range w.layers {
		w.layers[k].Hash(word)
	}
	word(uint64(math.Float32bits(w.cam.X)) | uint64(math.Float32bits(w.cam.Y))<<32)
	word(uint64(math.Float32bits(w.cam.Zoom)) | uint64(w.camGen)<<32)
}
