// Package simtest drives a simthread.Runner through scripted time, for
// tests of determinism: the same input events under different render
// rates, frame hitches and loops must give the same ticks and state.
//
// Threads: each function runs the loop (the caller's goroutine for the
// coupled loop, the runner's sim thread for the decoupled one) and returns
// when it has stopped; the sim then belongs to the caller again.
package simtest
