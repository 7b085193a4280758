// Package atomicfile writes outputs whole or not at all: a file is written
// under a new temporary name in its directory and renamed over its name
// when complete (as github.com/google/renameio does). A reader never sees
// half a file; a stop at any moment leaves the old file or the whole new
// one; a symlink at the name is replaced, never followed, so a bench folder
// from someone else's archive cannot point an output at the user's files.
//
// A character device (/dev/null, a terminal) or a pipe at the name itself
// is written directly: there is nothing to rename over, and writing to it
// is what the user asked. A symlink to one is replaced like any other
// (frame_time.png -> a FIFO, or -> /dev/tty, in a stranger's folder), except
// the system's own links to a process's files (/dev/stdout, see [Stat]),
// which are followed, and refused when they stand for anything else.
//
// A process that exits without unwinding (a second Ctrl-C) calls
// [RemovePending], which removes the temporary files still being written,
// except those made with [CreatePartial], whose names it returns.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// File is an output being written. Write to it, then Commit it (or Abort
// it). It is not safe for concurrent use.
type File struct {
	f      *os.File
	name   string // the name it is committed to
	tmp    string // its temporary name; "" when written directly
	keep   bool   // a crash leaves the temporary file (CreatePartial)
	closed bool
}

// pending are the temporary files being written, for RemovePending;
// exiting is set by RemovePending, after which no temporary file is made.
var (
	mu      sync.Mutex
	pending = map[*File]struct{}{}
	exiting bool
)

// errExiting is create's error after RemovePending: the process is exiting.
var errExiting = errors.New("the process is exiting")

// Create starts writing name: a new temporary file beside it, or the
// device or pipe at name itself.
func Create(name string) (*File, error) { return create(name, ".", ".tmp", false, false) }

// CreatePartial is Create for an output streamed during a run (a
// recording), whose part is worth keeping after a crash: its temporary
// file is visible, named NAME.partial-RANDOM, and RemovePending leaves it.
func CreatePartial(name string) (*File, error) { return create(name, "", ".partial-*", true, false) }

// create starts writing name; with replace, a device or pipe at name is
// replaced like a file, never written (see WriteFileIn).
func create(name, prefix, suffix string, keep, replace bool) (*File, error) {
	if name == "" || name == "-" {
		return nil, &fs.PathError{Op: "create", Path: name, Err: errors.New("not a file name")}
	}
	if fi, err := Stat(name); err == nil {
		switch {
		case fi.IsDir():
			return nil, &fs.PathError{Op: "create", Path: name, Err: errors.New("is a directory")}
		case Direct(fi.Mode()) && !replace:
			return openDirect(name, fi.Mode())
		case systemLink(name):
			// A file renamed over /dev/stdout would replace the system's
			// link, for every process.
			return nil, &fs.PathError{Op: "create", Path: name, Err: errors.New("stands for a file (stdout redirected to it?), not a device or pipe: give the file's own name")}
		}
	}
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	pattern := prefix + base + suffix
	if suffix == ".tmp" {
		pattern = prefix + base + ".*.tmp"
	}
	// The file is made and listed in pending under the lock, so that an
	// exit's RemovePending, on another goroutine, sees every temporary
	// file there is, and none is made after it.
	mu.Lock()
	defer mu.Unlock()
	if exiting {
		return nil, fmt.Errorf("create %s: %w", name, errExiting)
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", name, err)
	}
	// CreateTemp makes 0600; an output gets the mode os.Create would give
	// it (0666 less the umask).
	if err := f.Chmod(0o666 &^ fs.FileMode(umask)); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("create %s: %w", name, err)
	}
	a := &File{f: f, name: name, tmp: f.Name(), keep: keep}
	pending[a] = struct{}{}
	return a, nil
}

// Stat describes what is at name as Create sees it: the name itself, a
// symlink not followed (Create replaces it). Only the system's own links
// to a process's files are followed: /dev/stdout, /dev/stderr (any name
// directly in /dev), /dev/fd/N and /proc/PID/fd/N, in directories nobody
// else writes; a user who types one means the file it stands for. A name
// deeper under /dev, such as /dev/shm/x, is anyone's and is not followed.
func Stat(name string) (fs.FileInfo, error) {
	if systemLink(name) {
		return os.Stat(name)
	}
	return os.Lstat(name)
}

// systemLink reports whether name, made absolute, is directly in /dev,
// /dev/fd or a /proc/PID/fd.
func systemLink(name string) bool {
	abs, err := filepath.Abs(name)
	if err != nil {
		return false
	}
	dir := filepath.ToSlash(filepath.Dir(abs))
	if dir == "/dev" || dir == "/dev/fd" {
		return true
	}
	proc, ok := strings.CutPrefix(dir, "/proc/")
	pid, ok2 := strings.CutSuffix(proc, "/fd")
	return ok && ok2 && pid != "" && !strings.Contains(pid, "/")
}

// Direct reports whether a file of mode m is written in place rather than
// through a temporary file: a character device or a pipe.
func Direct(m fs.FileMode) bool {
	return m&fs.ModeCharDevice != 0 || m&fs.ModeNamedPipe != 0
}

// openDirect opens a device or pipe for writing. A pipe is opened without
// blocking (no reader: an error at once, not a hang) and then written as
// any file.
func openDirect(name string, m fs.FileMode) (*File, error) {
	flag := os.O_WRONLY
	if m&fs.ModeNamedPipe != 0 {
		flag |= syscall.O_NONBLOCK
	}
	f, err := os.OpenFile(name, flag, 0)
	if err != nil {
		return nil, err
	}
	return &File{f: f, name: name}, nil
}

// Name is the name the file is committed to.
func (a *File) Name() string { return a.name }

// TempName is the temporary name it is written under ("" when it is
// written directly).
func (a *File) TempName() string { return a.tmp }

// Write writes p to the file.
func (a *File) Write(p []byte) (int, error) { return a.f.Write(p) }

// Commit syncs and closes the file and renames it over its name. After an
// error the name holds what it held before and the temporary file is
// removed, unless the file was made with CreatePartial: then it is kept
// under its temporary name (the error names it).
func (a *File) Commit() error {
	if a.closed {
		return fmt.Errorf("commit %s: already closed", a.name)
	}
	a.closed = true
	if a.tmp == "" {
		return a.f.Close()
	}
	err := a.f.Sync()
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	mu.Lock()
	defer mu.Unlock()
	if _, ok := pending[a]; !ok {
		// RemovePending ran.
		return fmt.Errorf("commit %s: %w", a.name, errExiting)
	}
	delete(pending, a)
	if err == nil {
		err = os.Rename(a.tmp, a.name)
	}
	if err != nil {
		if a.keep {
			return fmt.Errorf("%w (what was written is in %s)", err, a.tmp)
		}
		os.Remove(a.tmp)
	}
	return err
}

// Abort closes the file and removes it: the name keeps what it held. A
// file made with CreatePartial is kept under its temporary name, as after
// a crash. It does nothing after Commit.
func (a *File) Abort() {
	if a.closed {
		return
	}
	a.closed = true
	a.f.Close()
	if a.tmp == "" {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	delete(pending, a)
	if !a.keep {
		os.Remove(a.tmp)
	}
}

// RemovePending removes the temporary files still being written, for a
// process about to exit without finishing them, and returns the names of
// those it keeps (made with CreatePartial). A Commit after it fails, and
// so does a Create: the outputs other goroutines go on writing until the
// exit leave nothing behind. Any goroutine.
func RemovePending() (kept []string) {
	mu.Lock()
	defer mu.Unlock()
	exiting = true
	for a := range pending {
		delete(pending, a)
		if a.keep {
			kept = append(kept, a.tmp)
			continue
		}
		os.Remove(a.tmp)
	}
	return kept
}

// WriteFile writes name whole with write, through a buffer: on an error
// from write or from the file, name keeps what it held.
func WriteFile(name string, write func(io.Writer) error) error {
	f, err := Create(name)
	if err != nil {
		return err
	}
	return writeAll(f, write)
}

// WriteFileIn is WriteFile for a name the program chose in a directory
// the user named (bench -out DIR's report.json, frames.csv, charts):
// whatever is at the name is replaced, a FIFO or a device too, never
// written through. A FIFO there (a bench folder from someone else's
// archive) would fail the write with no reader, or hang it with one that
// does not read; only a name the user typed is written in place.
func WriteFileIn(name string, write func(io.Writer) error) error {
	f, err := create(name, ".", ".tmp", false, true)
	if err != nil {
		return err
	}
	return writeAll(f, write)
}

// writeAll writes f whole with write and commits it, or aborts it.
func writeAll(f *File, write func(io.Writer) error) error {
	w := bufio.NewWriterSize(f, 64<<10)
	if err := write(w); err != nil {
		f.Abort()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}
