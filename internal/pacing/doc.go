// Package pacing chooses, for each frame, the moment of the world it shows
// and when it is swapped: the jitter buffer that sizes the interpolation
// delay from how late snapshots arrive, the present predictor, the present
// hold, a cap's grid and an emulated vsync's blanks, behind one [Pacer]
// that a frame asks two questions ([Pacer.Moment] and [Pacer.BeforeSwap]),
// both timed from the decision it hands back ([Pacer.Decide]).
// See docs/pacing.md.
//
// Threads: a Pacer belongs to the thread that draws the frames; only
// [Pacer.SetRefresh] may be called from another. It imports no GL and no
// GLFW: the frame hands it a function that finishes the GL work.
package pacing
