package scene

import (
	"strconv"

	"github.com/tandem-engine/tandem"
)

// Shooter is the shoot-'em-up: four rows of small ships cross an arena
// the size of the window while sixteen turrets along the bottom fire
// bullets at 2,000 to 20,000 px/s, and the player's gun joins in: it
// follows the pointer, the left stick or Left and Right, and Jump (space,
// the left mouse button, pad A) fires. -sprites is the most bullets in
// flight (1,000 by default); the turrets fire a twentieth of it each tick.
//
// Every bullet is swept against every ship over the tick with
// [physics.Sweep], both moving, so no bullet passes through a ship between
// two ticks at any speed; a hit removes the bullet and puts a new ship at
// a random place in the row (a teleport). Hits are counted in the sim, so
// the count depends on the input and the tick count alone: the same at
// any render rate, in every loop, on every machine.
//
// It draws the ships on layer 0, the gun on layer 1 and the bullets on
// layer 2.
type Shooter struct {
	sim    *shooter
	frames [roles]tandem.Frame
	// By the sim's slot: the entity that draws it, and the slot's life
	// and generation it was last drawn at.
	ids       []tandem.ID
	life, gen []uint32
	score     []byte // the score line, formatted each tick into its own storage
	sfx       sounds
	hitAt     uint64 // the tick the last hit sound played

	// Lasers draws every bullet as a line over the path it flew in its
	// last tick, blended between ticks (examples/shooter turns it on; the
	// launcher's bench runs the shooter without it).
	Lasers bool
	// CRT draws the frame through a screen shader: scanlines, a
	// vignette and a flash when a ship is hit.
	CRT bool
	crt tandem.Shader
	// flash is the CRT's flash: 1 at a hit, fading.
	flash float32
}

var (
	_ tandem.Game      = (*Shooter)(nil)
	_ tandem.Describer = (*Shooter)(nil)
	_ tandem.Hasher    = (*Shooter)(nil)
	_ tandem.Counter   = (*Shooter)(nil)
)

// roleLayer is the layer each role draws on.
var roleLayer = [roles]uint8{roleShip: layerShips, roleGun: layerGun, roleBullet: layerBullets}

// NewShooter returns the shoot-'em-up, a *[Shooter].
func NewShooter() tandem.Game { return &Shooter{} }

// Info implements tandem.Describer: "shooter", 1,000 bullets in flight at
// most by default, and no -level: the arena is the window.
func (g *Shooter) Info() tandem.Info {
	return tandem.Info{Name: "shooter", Sprites: 1000}
}

// Setup implements tandem.Game: the arena (the window, 64 px at least),
// the ships and the gun, and room for every bullet.
func (g *Shooter) Setup(s *tandem.Setup) error {
	if err := loadImages(s); err != nil {
		return err
	}
	aw, ah := s.Arena()
	aw, ah = max(aw, 64), max(ah, 64)
	sim := newShooter(float64(aw), float64(ah), s.Hz(), s.Seed(), s.Sprites())
	n := len(sim.slots.x)
	sfx, err := loadSounds(s)
	if err != nil {
		return err
	}
	*g = Shooter{sfx: sfx, sim: sim, ids: make([]tandem.ID, n), life: make([]uint32, n), gen: make([]uint32, n), score: make([]byte, 0, 64),
		Lasers: g.Lasers, CRT: g.CRT}
	if g.CRT {
		if g.crt, err = s.Shader("crt", crtShader); err != nil {
			return err
		}
		s.ScreenShader(g.crt)
	}
	g.frames = [roles]tandem.Frame{roleShip: s.Frame("ship"), roleGun: s.Frame("gun"), roleBullet: s.Frame("bullet")}
	s.Bounds(0, 0, float32(aw), float32(ah))
	w := s.World()
	w.SetCamera(tandem.Camera{X: float32(sim.w / 2), Y: float32(sim.h / 2)})
	// Bullets spawn and die every tick: their table grows now, not then.
	w.Reserve(layerBullets, sim.maxB)
	g.draw(w)
	return nil
}

// Tick implements tandem.Game: the shooter steps with the tick's input,
// then the entities follow its slots.
func (g *Shooter) Tick(w *tandem.World) {
	px, _, ok := w.Pointer()
	hits := g.sim.hits
	g.sim.step(shooterInput{
		left:       w.Down(tandem.Left),
		right:      w.Down(tandem.Right),
		fire:       w.Down(tandem.Jump),
		stick:      w.Axis(0),
		hasPointer: ok,
		pointerX:   px,
	})
	g.draw(w)
	g.showScore(w)
	g.effects(w, hits)
	// The gun's shot when fire goes down and every 8th tick while it is
	// held (it fires every tick: a sound a tick would be a buzz); the
	// turrets' dozens of shots a tick are silent. The turrets hit ships
	// most ticks: a hit sounds at most every 6th tick.
	pan := panOf(float32(g.sim.gunX), float32(g.sim.w/2), float32(g.sim.w/2))
	if w.Pressed(tandem.Jump) || w.Down(tandem.Jump) && w.Tick()%8 == 0 {
		w.Play(g.sfx.shot, 0.5, pan)
	}
	if g.sim.hits > hits && w.Tick() >= g.hitAt+6 {
		w.Play(g.sfx.hit, 0.5, 0)
		g.hitAt = w.Tick()
	}
}

// showScore writes "hits H of F" at the top left, below the bench's probe
// row, without allocating once the buffer has grown.
func (g *Shooter) showScore(w *tandem.World) {
	b := append(g.score[:0], "hits "...)
	b = strconv.AppendUint(b, g.sim.hits, 10)
	b = append(b, " of "...)
	b = strconv.AppendUint(b, g.sim.fired, 10)
	g.score = b
	w.TextBytes(8, 20, 0, b)
}

// effects draws the lasers and sets the CRT's flash, when they are on:
// drawing only, which no hash sees.
func (g *Shooter) effects(w *tandem.World, hitsBefore uint64) {
	if g.Lasers {
		t := &g.sim.slots
		dt := float32(g.sim.dt)
		for _, b := range g.sim.bullets {
			x, y := float32(b.x)+BulletSize/2, float32(b.y)+BulletSize/2
			vx, vy := float32(b.vx), float32(b.vy)
			// Faster bullets burn whiter.
			c := uint32(0xFF4040FF)
			if vy < -10_000 {
				c = 0xFFC0F0FF
			}
			w.Line(x, y, x-float32(vx*dt), y-float32(vy*dt), tandem.Style{Width: 2, Color: c, Layer: layerBullets,
				Key: b.slot | t.life[b.slot]<<20})
		}
	}
	if g.CRT {
		if g.sim.hits > hitsBefore {
			g.flash = 1
		}
		w.Uniform(g.crt, "u_flash", g.flash)
		g.flash *= 0.85
	}
}

// crtShader is the shooter's screen shader: every other line darker, the
// corners darker, and the frame brighter for a moment after a hit.
const crtShader = `#version 410 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_layer;
uniform vec2 u_size;
uniform float u_flash;

void main() {
	vec4 c = texture(u_layer, v_uv);
	float scan = 0.75 + 0.25 * step(1.0, mod(v_uv.y * u_size.y, 2.0));
	vec2 d = v_uv - 0.5;
	float vignette = clamp(1.0 - dot(d, d) * 1.4, 0.0, 1.0);
	o_color = vec4(c.rgb * scan * vignette + vec3(0.25, 0.1, 0.05) * u_flash, 1.0);
}
`

// draw brings w's entities in line with the sim's slots: a slot that
// holds a new entity since the last draw gets a new one in w (its
// predecessor, if still there, despawned), a changed generation is a
// teleport or a despawn, anything else a move.
func (g *Shooter) draw(w *tandem.World) {
	t := &g.sim.slots
	for len(g.ids) < len(t.x) { // only when the sim's table grew
		g.ids, g.life, g.gen = append(g.ids, tandem.ID{}), append(g.life, 0), append(g.gen, 0)
	}
	for k := range t.x {
		switch {
		case t.life[k] != g.life[k]:
			w.Despawn(g.ids[k])
			g.ids[k] = tandem.ID{}
			if t.alive[k] {
				r := t.role[k]
				g.ids[k] = w.Spawn(tandem.Sprite{X: t.x[k], Y: t.y[k], Frame: g.frames[r], Layer: roleLayer[r]})
			}
		case t.gen[k] == g.gen[k]:
			if t.alive[k] {
				w.Move(g.ids[k], t.x[k], t.y[k])
			}
		case t.alive[k]:
			w.Teleport(g.ids[k], t.x[k], t.y[k])
		default:
			w.Despawn(g.ids[k])
		}
		g.life[k], g.gen[k] = t.life[k], t.gen[k]
	}
}

// StateHash implements tandem.Hasher: every ship, bullet and count, the
// gun, the random generator and the slots, as recordings of the shooter
// have always checked them.
func (g *Shooter) StateHash() uint64 { return g.sim.hash() }

// Counters implements tandem.Counter: hits and bullets_fired.
func (g *Shooter) Counters(add func(name string, v int64)) {
	add("hits", int64(g.sim.hits))
	add("bullets_fired", int64(g.sim.fired))
}

// Hits returns the number of ships hit so far. Between ticks only.
func (g *Shooter) Hits() uint64 { return g.sim.hits }

// Fired returns the number of bullets fired so far. Between ticks only.
func (g *Shooter) Fired() uint64 { return g.sim.fired }
