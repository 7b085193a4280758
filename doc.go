// Package tandem is a 2D game engine whose simulation runs on its own
// thread, decoupled from the frame rate.
//
// # The model
//
// A game is a [Game]: a Setup that builds its world and a Tick that steps
// it. The engine runs Tick on a fixed timestep (-hz, 60 by default) on a
// goroutine locked to its own OS thread, with time counted in integer
// nanoseconds and guarded against the spiral of death: when a tick costs
// more than its budget the sim runs in slow motion instead of falling
// further behind. The game never sees a variable delta time; [World.Dt] is
// always 1/Hz.
//
// After every tick the engine publishes a snapshot of the world (the
// camera and every entity's sprite) through a lock-free ring. The main
// thread polls the window's input and draws, at whatever rate the display
// allows, the sprites interpolated between the two snapshots that bracket
// the moment the frame will be shown, so motion stays smooth when the
// frame rate and the tick rate differ. Entities are interpolated unless
// they teleport, despawn or are new in a reused slot: the engine tracks
// that, so a game just calls [World.Move] or [World.Teleport].
//
// Input is data. Every key, mouse button, gamepad button, cursor move and
// stick motion is stamped when it happens and handed to the sim thread,
// which applies it at the tick that stamp falls in (or, if that tick has
// already run, the next, counted in the summary's input_late). A game
// reads actions ([Action], bound with [Setup.Bind]) from the [World] of
// each tick. Given the same input, a game steps to the same state on
// every run, loop and machine, which is what makes recordings replay
// exactly: tandem run -record FILE, tandem replay -verify FILE.
//
// The types enforce the thread rules: [Setup] runs before the sim starts
// and holds nothing that draws; [World] belongs to the sim thread and
// holds nothing that can touch OpenGL or the window. The engine owns the
// window, the GL context and the render thread.
//
// # Running a game
//
// [Main] gives a game tandem's whole command line: run (the window), bench
// (the same under load, with frame-pacing figures), replay (recordings),
// the HUD (F3), profiles and the JSON summary. [Run] runs it from a
// program with a [Config] instead. [NewSim] sets a game up with no window,
// for tests and servers. Main and Run need cgo (GLFW and OpenGL); the rest
// of the API does not, so a game package builds, tests and cross-compiles
// with CGO_ENABLED=0, and a server can step its games with NewSim.
//
//	type game struct{ ball tandem.ID }
//
//	func (g *game) Setup(s *tandem.Setup) error {
//		g.ball = s.World().Spawn(tandem.Sprite{X: 100, Y: 100, Scale: 16})
//		return nil
//	}
//
//	func (g *game) Tick(w *tandem.World) {
//		b, _ := w.Get(g.ball)
//		if w.Down(tandem.Right) {
//			b.X += 300 * float32(w.Dt())
//		}
//		w.Set(g.ball, b)
//	}
//
//	func main() { tandem.Main(&game{}) }
//
// The zero Frame is a white pixel, so this game draws a 16 px white square
// that moves right while the right arrow (or D, or the d-pad) is held. See
// the README's "Write your own game" for a whole game with its own images
// and score, and examples/scene for three larger ones.
//
// # Determinism
//
// A recording replays only if every tick computes the same bits on every
// run, loop and machine. In Tick: use [World.Dt] (fixed), never the wall
// clock; draw randomness from a seeded generator ([Setup.Seed],
// physics.NewRNG); use physics.Sin, Cos, Atan2, Sqrt and Hypot, never
// package math's, whose results differ between amd64 and arm64; and write
// a product that is added to as float32(a*b)+c, so that arm64 does not
// fuse it into one rounding (Go's spec allows that fusion). physics' doc
// has the whole list.
//
// # Sound
//
// [Setup.Sounds] and [Setup.Sound] declare a game's sounds (WAV or MP3)
// as [Setup.Images] declares its pictures; [World.Play], [World.Stop],
// [World.Music] and [World.StopMusic] play them from Tick. A play is part
// of the tick's output, like its sprites: it is published with the tick's
// snapshot, and the mixer starts it on the exact sample of the tick's time
// plus one offset held for the run, so sounds keep the gaps between their
// ticks at any frame rate. It is not game state: hashes do not see it, and
// a replay plays the same sounds at the same ticks. With no sound device
// the run goes on silent. docs/sound.md has the timeline.
//
// # Drawing
//
// Besides sprites and tiles a tick draws shapes, text and shaders, and
// like its sprites and sounds what it draws is part of its output: it is
// declared on the sim thread, published with the tick's snapshot and
// drawn blended between two snapshots, so it moves as smoothly as the
// sprites at any frame rate. Nothing of it is state: hashes do not see
// it, and a replay draws it again from the same ticks.
//
// Shapes ([World.Circle], [World.Ellipse], [World.Rect],
// [World.RoundRect], [World.Line], [World.Polyline], [World.Arc],
// [World.Polygon]) are anti-aliased, filled or outlined, in world or
// screen pixels, on a layer, as a [Style] says. Text ([World.Print]) is
// UTF-8 in a font Setup loaded ([Setup.Font], TrueType or OpenType) or
// the default one, at any size, aligned, with the same choices in a
// [TextStyle]. What a tick draws lasts that tick: draw it again every
// tick, and give it a Key (or put it On an entity) to have it blended
// from where it was. A health bar over the player and a score:
//
//	bar := tandem.Style{On: g.player, Key: 1, Color: 0xFF00C000}
//	w.Rect(-16, -24, 32*hp/maxHP, 4, bar)
//	g.buf = strconv.AppendInt(g.buf[:0], g.score, 10)
//	w.PrintBytes(16, 16, g.buf, tandem.TextStyle{Font: g.font, Size: 32, Screen: true})
//
// A game's fragment shader ([Setup.Shader], GLSL 4.10) draws a layer
// ([Setup.LayerShader]) or the whole frame ([Setup.ScreenShader]) from a
// texture of what was drawn, with uniforms of its own that ticks set
// ([World.Uniform], blended between ticks); [Setup.Offscreen] draws a
// layer into a texture that only shaders read (a light map). A shader
// that does not compile stops the run before its first frame, naming it
// and its line. docs/drawing.md has the details and the costs.
//
// # The camera
//
// Until a game calls [World.SetCamera] the camera is centred on (0, 0) at
// zoom 1, so world pixel (0, 0) is the window's centre. A game that called
// [Setup.Bounds] or [Setup.Tiles] has its view kept inside those bounds.
//
// Threads: [Main], [Command] and [Run] must be called from the program's
// main goroutine (main, or what it calls), which importing this package
// locks to the main OS thread, as GLFW requires. A game's Setup runs there
// too, before the sim starts; its Tick runs on the sim thread (the main
// thread in the coupled loop), and never at the same time as anything
// else of the game.
package tandem
