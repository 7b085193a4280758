// Package replay writes and reads tandem's recordings: every input event
// of a run with the tick it was applied at, checkpoints of the state hash,
// and the final tick and hash, so that a replay reproduces the run exactly
// and can prove it did.
//
// # The format (version 1)
//
// All integers are little-endian.
//
//	file       = magic "TANDEMRP" | version u16 | header length u32 | header | CRC-32 of header u32 | chunk*
//	header     = scene str | level str | level hash u64 | seed u64 | hz u32 | sprites u32
//	             | arena w u32 | arena h u32 | checkpoint every u32 | build str
//	str        = length u16 | UTF-8 bytes
//	chunk      = length u32 | records | CRC-32 of length and records u32
//	record     = 'E' tick u64 | stamp i64 | kind u8 | down u8 | buttons u32 | scale num u8 | scale den u8
//	                 | x f32 | y f32 | axis u8                (a simthread.Event; x, y: the pointer, or x an axis value)
//	           | 'C' tick u64 | hash u64                    (a checkpoint: the hash after tick ticks)
//	           | 'T' tick u64 | 0 u64                      (the input is complete up to tick ticks)
//	           | 'F' tick u64 | hash u64 | stopped-by str   (the end: final tick count and hash)
//
// A [Writer] writes a chunk every [FlushEvery] (250 ms), ending with a
// 'T' mark of the ticks run, so a run killed without warning loses at most
// its last half second: [Read] returns what the
// whole chunks hold and says how much of the file it could not use. Every
// length is checked against what is left of the file before anything is
// allocated for it; a bad CRC, an unknown record, a wrong magic or version
// is an [Error] naming the file, the byte offset and the reason.
//
// Threads: a Writer's Applied and Checkpoint run on the sim thread and
// neither block nor allocate; its own goroutine writes the file. Read,
// [Recording] and [Verifier] are safe to use from one goroutine at a time,
// except that a Verifier's Checkpoint may run on the sim thread while
// another goroutine reads its result after the loop has stopped.
package replay
