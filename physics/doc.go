// Package physics is what any tandem game's world is made of: a tile
// level, bodies with axis-aligned boxes, gravity, swept collisions against
// tiles and between moving boxes that never tunnel, a platformer
// character, a uniform-grid broadphase, a seeded RNG, and a hasher over
// the exact bits of a state. The games own their worlds (the demo's are in
// cmd/tandem/scene: coins and bouncing bunnies are theirs, not this
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
// Determinism: the step uses no maps, no goroutines, no math.Sin or other
// library approximations, and no global random state; randomness comes from
// the seeded [RNG] stored in the state and hashed with it. Go allows a
// compiler to fuse x*y + z into one fused multiply-add (FMA) instruction
// with a single rounding, and it does so on arm64, ppc64le, s390x and
// riscv64 (and on amd64 with GOAMD64=v3), which would make the same program
// produce different bits on different machines. An explicit conversion
// forces the product to be rounded first, so every product that feeds an
// addition or subtraction in this package is written float64(a*b) + c (or
// float32(a*b) + c in float32 code), even when the product sits in another
// variable or statement: fusion may cross statements and inlined calls.
// Keep this rule when editing; TestNoFusedMultiplyAdd checks the arm64
// assembly.
//
// Hot paths: [Character.Step], [Body.Step], [Level.Move], [Sweep] and
// [Grid.Query] allocate nothing.
package physics
