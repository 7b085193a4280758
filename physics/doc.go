// Package physics is what any tandem game's world is made of: a tile
// level, bodies with axis-aligned boxes, gravity, swept collisions against
// tiles and between moving boxes that never tunnel, a platformer
// character, a uniform-grid broadphase, a seeded RNG, and a hasher over
// the exact bits of a state. The games own their worlds (the demo's are in
// examples/scene: coins and bouncing bunnies are theirs, not this
// package's).
//
// Threads: the physics package holds no goroutines and no locks: a value
// belongs to one goroutine at a time (the sim thread). Every method of
// [Character], [Body] and [Grid] must only be called from the goroutine
// that owns the value; hand one to another goroutine only with a
// happens-before edge (a channel send, a mutex). A [Level] is never
// modified by this package after [ParseLevel] returns, so one Level may be
// shared by worlds on different goroutines as long as nobody writes to it.
// Plain values ([Vec], [AABB], [CharacterTuning]) and pure functions may
// be used from anywhere.
//
// Time: the package never reads a clock. A character or body advances only
// when its Step is called, by the dt the game passes (1/Hz seconds), so a
// world's state after n steps depends on its inputs and on nothing else.
// Durations in the tuning (coyote time, jump buffer) are given in seconds
// and rounded to whole ticks once, in [NewCharacter].
//
// Units: world units are pixels; x grows right and y grows DOWN (screen
// convention), so gravity is +y and a jump is a negative y velocity.
// Velocities are pixels per second.
//
// Hot paths: [Character.Step], [Body.Step], [Level.Move], [Sweep] and
// [Grid.Query] allocate nothing.
//
// # Determinism
//
// A game's step must compute the same bits from the same inputs on every
// machine, or its recordings replay differently and its state hashes differ
// between amd64 and arm64. This package keeps these rules, and a game's own
// step code must keep them too:
//
//   - Round every product that feeds an addition or subtraction:
//     float32(a*b) + c in float32 code, float64(a*b) + c in float64 code,
//     also when the product sits in another variable or statement (fusion
//     crosses statements and inlined calls). Go lets a compiler fuse x*y + z
//     into one fused multiply-add (FMA) with a single rounding, and it does
//     on arm64, ppc64le, s390x and riscv64 (and amd64 with GOAMD64=v3); an
//     explicit conversion forces the product to be rounded first.
//     TestNoFusedMultiplyAdd checks this package's arm64 assembly with
//     package fmacheck; the demo games check theirs the same way, and a
//     game checks its own with one line: fmacheck.Check(t) in a test.
//   - For angles and lengths use [Sin], [Cos], [Atan2], [Sqrt] and [Hypot]
//     (float32, like a sprite's position and angle), never math.Sin,
//     math.Cos, math.Atan2, math.Hypot, math.Pow or math.Exp: those are
//     assembly on some ports and Go on others, and their last bits differ.
//     The functions here are correctly rounded but for values within a
//     hair of a rounding midpoint (errors up to 0.5001 ulps), and
//     TestDeterministicMathGoldenHash compares their bits with hashes
//     recorded on amd64; run under qemu-aarch64 it proves them on arm64.
//     math.Sqrt, math.Abs, math.Floor, math.Ceil, math.Trunc and
//     math.Copysign are exact, hence safe.
//   - Take randomness from a seeded [RNG] stored in the state and hashed
//     with it, never from a global source.
//   - Use no maps where their order matters (it is random), no goroutines,
//     and no clocks: time comes in as the dt the game passes.
//   - Keep NaNs out of hashed state: arithmetic makes NaNs with different
//     bits on amd64 and arm64. (The functions above return a NaN with one
//     fixed bit pattern, 0x7fc00000.)
package physics
