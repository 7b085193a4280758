// Package replay writes and reads tandem's recordings: every input event
// of a run with the tick it was applied at, checkpoints of the state hash,
// and the final tick and hash, so that a replay reproduces the run exactly
// and can prove it did.
//
// # The format (version 3)
//
// All integers are little-endian.
//
//	file       = magic "TANDEMRP" | version u16 | header length u32 | header
//	             | CRC-32 of everything before it u32 | chunk*
//	header     = scene str | level str | level hash u64 | seed u64 | hz u32 | sprites u32
//	             | arena w u32 | arena h u32 | checkpoint every u32 | build str
//	             | level text length u32 | level text | flag count u16 | flag str*
//	str        = length u16 | UTF-8 bytes
//	chunk      = prefix | records | CRC-32 of prefix and records u32
//	prefix     = length of records u32 | index u32 | reach u64 | CRC-32 of those 16 bytes u32
//	record     = 'E' tick u64 | stamp i64 | kind u8 | down u8 | buttons u32 | scale num u8 | scale den u8
//	                 | x f32 | y f32 | axis u8                (a simthread.Event; x, y: the pointer, or x an axis value)
//	           | 'C' tick u64 | hash u64                    (a checkpoint: the hash after tick ticks)
//	           | 'T' tick u64 | 0 u64                      (the input is complete up to tick ticks)
//	           | 'F' tick u64 | hash u64 | stopped-by str   (the end: final tick count and hash)
//
// A chunk's index counts the chunks from 0; its reach is the run's tick
// count when it was written (at least every tick in it, and never less
// than the chunk before's).
//
// The header holds the level played, in the level file format, and the
// game's own flags as NAME=VALUE: a replay needs no other file, and
// opens none the recording names. Its level is a name for messages only.
// Version 2's header ends at build: its level is the -level flag as
// given, a path (see docs/replay.md for how a replay treats it).
//
// A [Writer] writes a chunk every [FlushEvery] (250 ms), ending with a
// 'T' mark of the ticks run, so a run killed without warning loses what
// it ran after its last whole chunk: the chunk being written, if any, and
// what it would have written next.
//
// # What is checked
//
// Every byte of a version 2 file is under a CRC-32: the header with the
// magic, version and length before it; each chunk's prefix on its own;
// each chunk whole. A chunk's prefix is checked before its length is
// used, so a corrupt length is never mistaken for the end of the file.
// Beyond the CRCs, [Read] checks that chunks come in index order with
// reaches that never go back, that no record's tick is past its chunk's
// reach, that events, marks and checkpoints never go back in time, that
// every event is one the loop would apply, and that nothing follows the
// end record; every length is checked against what is left of the file
// before anything is allocated for it.
//
// Nothing a file claims is taken on trust. The header's fields are in
// the ranges of the flags that set them ([MaxHz], [MaxSprites],
// [MaxArena], and a checkpoint at most every [MaxCheckpointEvery]
// ticks), and no record, and no chunk's reach, is more than one
// checkpoint interval past the last checkpoint before it (the start's,
// at tick 0, when there is none yet): a file holds at most (its
// checkpoints + 1) x CheckpointEvery ticks, and each checkpoint is 17 of
// its bytes. So the work and memory of reading or replaying a file grow
// with its size, never with what it says. [Open] refuses anything but a
// regular file before reading a byte.
//
// A file that fails any check is corrupt: Read returns an [Error] naming
// the file, the byte offset of the header or chunk at fault (or of the
// field in it) and the reason, and nothing else. A file whose whole
// chunks all check but which ends before its end record was cut short:
// that is not an error. Read returns what its whole chunks hold, with
// [Recording.Cut] saying where the file ends, the tick and seconds of sim
// time it holds the run up to, and, when the file ends inside a chunk
// whose prefix is whole, the ticks lost with that chunk. Only the bytes
// after the last whole chunk go unchecked, and they are reported lost. A
// file cut inside its header holds no recording: that is an Error.
// [Recording.CheckComplete] is the check for a command that wants a
// whole file.
//
// Version 1, written before chunks had a prefix, is read as it always
// was: a chunk is its length u32, its records and a CRC-32 of both, and
// the header's CRC covers the header's fields alone. Its chunk lengths
// have no check of their own, so a length running past the end of the
// file reads as a cut, whether the file was cut or the length corrupted;
// its Cut says so.
//
// Threads: a Writer's Applied and Checkpoint run on the sim thread and
// neither block nor allocate; its own goroutine writes the file. Read,
// [Recording] and [Verifier] are safe to use from one goroutine at a time,
// except that a Verifier's Checkpoint may run on the sim thread while
// another goroutine reads its result after the loop has stopped.
package replay
