// Package scene holds the demo's games: the platformer and the bunnymark
// (on [World]: a level, the player, coins and bouncing bunnies, built from
// package physics's parts) and the shooter ([Shmup]), written against the
// engine's plumbing (simthread.Sim in, snapshots out) and nothing else, so
// that the engine-as-a-library API of the roadmap can take them over
// unchanged.
//
// Determinism: like package physics, every product that feeds a sum is
// rounded first (float64(a*b) + c), so that no compiler fuses it into a
// multiply-add and every machine computes the same bits;
// TestNoFusedMultiplyAdd checks the arm64 assembly.
//
// Threads: a Game is a simthread.Sim. Its Step, Publish and Hash run on the
// sim thread only (or the caller's, in the coupled loop); the constructors
// and Tiles run before the loop starts.
package scene
