package replay

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tandem-engine/tandem/internal/atomicfile"
	"github.com/tandem-engine/tandem/simthread"
)

// FlushEvery is how often a [Writer] writes what the sim has recorded: a
// run killed without warning loses at most this much, plus the chunk
// being written.
const FlushEvery = 250 * time.Millisecond

// ringSize is how many records the sim thread can hand over between two
// flushes: far more than a quarter second of input and checkpoints.
const ringSize = 1 << 15

// item is one record on its way from the sim thread to the file.
type item struct {
	kind  byte // recEvent or recCheckpoint
	tick  uint64
	hash  uint64
	event simthread.Event
}

// Writer writes a recording while the loop runs: it is the loop's
// [simthread.Recorder]. The sim thread hands records over through a
// lock-free ring; the Writer's goroutine writes them as a chunk every
// [FlushEvery]. [Writer.Close] writes the final tick and hash.
type Writer struct {
	w io.Writer
	// commit ends a file's recording: renames it over its name when whole,
	// or keeps it under its partial name (the error says where).
	commit func(whole bool) error
	done   chan struct{}
	quit   chan struct{}

	ring       [ringSize]item
	head, tail atomic.Uint64 // head: next to write to the file; tail: next free slot
	dropped    atomic.Uint64
	ticks      atomic.Uint64 // the state's tick count, from Ticked
	marked     uint64        // the tick count the file last vouched for
	chunks     uint32        // the chunks written so far: the next one's index
	reach      uint64        // the tick count the last chunk reached

	mu     sync.Mutex    // held while a chunk is written; guards what follows
	buf    []byte        // the chunk buffer
	err    error         // the first write error
	failed chan struct{} // closed at the first write error
	closed bool
	name   string
}

var _ simthread.Recorder = (*Writer)(nil)

// Create starts the recording path and writes the header h at once. The
// recording is written to PATH.partial-RANDOM beside path and renamed to
// path by a Close that wrote it whole, so path holds a whole recording
// or what it held before. A run that dies before Close (a crash, a kill,
// a second Ctrl-C) leaves the partial file, readable up to its last whole
// chunk (replay it with -allow-cut); so does a write error, which names
// it. A device at path (/dev/null) is written directly.
func Create(path string, h Header) (*Writer, error) {
	f, err := atomicfile.CreatePartial(path)
	if err != nil {
		return nil, fmt.Errorf("replay: -record: %w", err)
	}
	w, err := newWriter(f, h, path, FlushEvery)
	if err != nil {
		f.Abort()
		if f.TempName() != "" {
			os.Remove(f.TempName())
		}
		return nil, err
	}
	w.commit = func(whole bool) error {
		if !whole {
			f.Abort()
			if f.TempName() == "" {
				return nil
			}
			return fmt.Errorf("what was recorded before it is in %s", f.TempName())
		}
		return f.Commit()
	}
	return w, nil
}

// NewWriter writes a recording with header h to w.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	return newWriter(w, h, "recording", FlushEvery)
}

// newWriter writes a chunk every every, or only when told (Flush, Close)
// when every is 0.
func newWriter(w io.Writer, h Header, name string, every time.Duration) (*Writer, error) {
	b, err := appendHeader(nil, h)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(b); err != nil {
		return nil, fmt.Errorf("replay: %s: %w", name, err)
	}
	rw := &Writer{w: w, done: make(chan struct{}), quit: make(chan struct{}), failed: make(chan struct{}),
		name: name, buf: make([]byte, 0, 64<<10)}
	go rw.run(every)
	return rw, nil
}

// Applied implements [simthread.Recorder]. Sim thread only.
func (w *Writer) Applied(tick uint64, e simthread.Event) {
	w.put(item{kind: recEvent, tick: tick, event: e})
}

// Checkpoint implements [simthread.Recorder]. Sim thread only.
func (w *Writer) Checkpoint(tick, hash uint64) {
	w.put(item{kind: recCheckpoint, tick: tick, hash: hash})
}

// Ticked implements [simthread.Recorder]. Sim thread only.
func (w *Writer) Ticked(ticks uint64) { w.ticks.Store(ticks) }

func (w *Writer) put(it item) {
	t := w.tail.Load()
	if t-w.head.Load() == ringSize {
		w.dropped.Add(1)
		return
	}
	w.ring[t%ringSize] = it
	w.tail.Store(t + 1)
}

// run writes a chunk every every until Close.
func (w *Writer) run(every time.Duration) {
	defer close(w.done)
	var tick <-chan time.Time
	if every > 0 {
		t := time.NewTicker(every)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-tick:
			w.Flush()
		case <-w.quit:
			return
		}
	}
}

// Flush writes the records handed over so far as a chunk now, rather than
// at the next tick of FlushEvery, and returns the first write error so
// far. Any goroutine but the sim thread.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errors.New("replay: Flush after Close")
	}
	w.flush(nil, 0)
	return w.err
}

// flush writes the records handed over so far, and final if not nil (the
// end record of the run's finalTick ticks), as one chunk. Under w.mu.
func (w *Writer) flush(final []byte, finalTick uint64) {
	// The tick count first: every event applied before those ticks ran
	// was handed over before it, so is in the ring up to t.
	k := w.ticks.Load()
	h, t := w.head.Load(), w.tail.Load()
	if (h == t && final == nil && k == w.marked) || w.err != nil {
		return
	}
	// What the chunk reaches: the run's tick count now, and every
	// record's tick (an event applied after k was read may be in the
	// ring), never less than the last chunk's.
	reach := max(w.reach, k, finalTick)
	b := append(w.buf[:0], emptyPrefix[:]...)
	for i := h; i < t; i++ {
		it := &w.ring[i%ringSize]
		reach = max(reach, it.tick)
		if it.kind == recEvent {
			b = appendEvent(b, it.tick, &it.event)
		} else {
			b = appendPoint(b, recCheckpoint, Checkpoint{Tick: it.tick, Hash: it.hash})
		}
		if len(b) > maxChunk-64-len(final) {
			// Keep every chunk within what Read accepts.
			if b = w.seal(b, reach); w.err != nil {
				return
			}
			b = append(b[:0], emptyPrefix[:]...)
		}
	}
	w.head.Store(t)
	if k != w.marked {
		b = appendPoint(b, recMark, Checkpoint{Tick: k})
		w.marked = k
	}
	b = append(b, final...)
	w.buf = w.seal(b, reach)[:0]
}

var emptyPrefix [prefixSize]byte

// seal seals the chunk b, which reaches tick count reach, as the next
// chunk of the file and writes it. It returns b with its CRC (it may have
// grown). Under w.mu.
func (w *Writer) seal(b []byte, reach uint64) []byte {
	b = sealChunk(b, 0, w.chunks, reach)
	w.chunks++
	w.reach = reach
	w.write(b)
	return b
}

// write writes one whole chunk in one call, so that a crash cuts at most
// the chunk being written.
func (w *Writer) write(b []byte) error {
	if _, err := w.w.Write(b); err != nil && w.err == nil {
		w.err = fmt.Errorf("replay: writing %s: %w", w.name, err)
		close(w.failed)
	}
	return w.err
}

// Failed is closed at the first write error (a full disk, an I/O error),
// when it happens: after it the file holds what was written before, and
// nothing more is written. Err says what it was. Any goroutine.
func (w *Writer) Failed() <-chan struct{} { return w.failed }

// Err returns the first write error, or nil. Any goroutine but the sim
// thread (it waits for a chunk being written).
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Close writes what is left and the end record: the final tick count and
// state hash and what stopped the run; then it syncs and closes the file
// and renames it to its name (see Create).
// Call it once the loop has stopped (no more Applied or Checkpoint). It
// reports a write error from any point of the run, or records dropped
// because the disk fell behind (the recording then cannot replay
// exactly).
func (w *Writer) Close(final Checkpoint, stoppedBy string) error {
	if len(stoppedBy) > 255 {
		stoppedBy = stoppedBy[:255]
	}
	end := appendPoint(nil, recFinal, final)
	return w.end(appendStr(end, stoppedBy), final.Tick)
}

// Cut ends the recording without its end record, for a run whose final
// state cannot be known (its sim thread is stuck inside a tick that never
// ends): the records handed over so far are written and the file is
// kept under its name as a recording cut short, which replay checks as
// far as it goes (-allow-cut). Instead of Close; not on the sim thread.
func (w *Writer) Cut() error { return w.end(nil, 0) }

// end stops the flusher, writes what is left with final (nil: no end
// record), and commits the file.
func (w *Writer) end(final []byte, finalTick uint64) error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return errors.New("replay: Close called twice")
	}
	w.closed = true
	w.mu.Unlock()
	close(w.quit)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flush(final, finalTick)
	err := w.err
	if w.commit != nil {
		if cerr := w.commit(err == nil); err == nil && cerr != nil {
			err = fmt.Errorf("replay: closing %s: %w", w.name, cerr)
		} else if cerr != nil {
			err = fmt.Errorf("%w; %w", err, cerr)
		}
	}
	if n := w.dropped.Load(); n > 0 && err == nil {
		err = fmt.Errorf("replay: %s: %d records dropped (the disk fell behind the sim): the recording will not replay exactly", w.name, n)
	}
	return err
}
