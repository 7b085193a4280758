// Package scene holds the demo's three games, written on package tandem's
// public API and nothing else of the engine: the platformer
// ([NewPlatformer]: a level, the player, coins, and -sprites bouncing
// bunnies as load), the bunnymark ([NewBunnymark]: the bunnies alone, the
// bench's load) and the shoot-'em-up ([NewShooter]: rows of ships, turrets
// and the player's gun, every bullet swept against every ship).
//
// Each game is a simulation that knows nothing of the engine (a [World]
// for the first two, the shooter's own for the third) and a thin
// tandem.Game around it, whose Tick steps the simulation with the tick's
// actions and then moves the entities to match. The simulation's hash is
// the game's StateHash: the values the games have always had, so
// recordings made before still verify.
//
// Building: the games use only the part of package tandem that needs no
// cgo (the window and the renderer do), so make test cross-compiles them
// for arm64 and checks the golden hashes under qemu-user (TestGoldenHash).
//
// Determinism: like package physics, every product that feeds a sum is
// rounded first (float64(a*b) + c), so that no compiler fuses it into a
// multiply-add and every machine computes the same bits;
// TestNoFusedMultiplyAdd checks the arm64 assembly.
//
// Threads: as package tandem says of every game: Setup runs before the
// sim thread starts, Tick and StateHash on the sim thread (the caller's,
// in the coupled loop), Counters after it has stopped. The accessors
// (World, Hits, ...) are for between ticks. A [World] belongs to one
// goroutine.
package scene
