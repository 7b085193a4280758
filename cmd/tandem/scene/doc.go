// Package scene holds the demo's game: the platformer and the bunnymark,
// written against the engine's plumbing (simthread.Sim in, snapshots out)
// and nothing else, so that the engine-as-a-library API of the roadmap can
// take them over unchanged.
//
// Threads: a Game is a simthread.Sim. Its Step, Publish and Hash run on the
// sim thread only (or the caller's, in the coupled loop); the constructors
// and Tiles run before the loop starts.
package scene
