// Package levels holds the levels shipped with tandem, embedded so that the
// app finds them wherever it runs from. The files stay plain text in this
// folder: edit them, and the next build picks them up.
//
// Threads: Demo may be called from any goroutine; the level it returns then
// belongs to the caller.
package levels
