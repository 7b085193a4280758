// Package regfile opens the files tandem reads from a user (levels,
// recordings) so that none can block or flood it: it opens without
// waiting, then asks the open file what it is, and gives back only a
// regular file. A FIFO would block an ordinary open until a writer comes
// (forever, for a FIFO nobody writes); a device such as /dev/zero never
// ends; a directory is not a file at all.
package regfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// NotRegularError is a path that names something other than a regular
// file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

// Error says what the path is and that a regular file is wanted.
func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: give a file", e.Path, Kind(e.Mode))
}

// Kind names the kind of file mode m is, for errors: "a FIFO", "a
// device", "a directory", ...
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a plain file"
}

// LinkError is a path that is a symbolic link leading out of the
// directory it was looked up in, which is not followed.
type LinkError struct {
	Path string
}

// Error says that the link is not followed.
func (e *LinkError) Error() string {
	return fmt.Sprintf("%s is a symbolic link out of its folder, which is not followed here: give the file itself", e.Path)
}

// Open opens path for reading and returns it with its size when it is a
// regular file (symbolic links are followed); anything else is closed at
// once and refused with a *NotRegularError, before a byte is read. The
// open itself never waits: on Unix it is made with O_NONBLOCK, which
// leaves reads of a regular file as they are.
func Open(path string) (*os.File, int64, error) {
	f, err := open(path)
	if err != nil {
		return nil, 0, err
	}
	return regular(f, path)
}

// OpenIn is Open for a file name someone else chose, in a directory they
// may have filled (a level a recording names, looked up beside it): it
// opens name through os.OpenRoot(dir), so that nothing outside dir is
// reached, in one step with no gap between a look and the open on any
// system. A symbolic link that leads out of dir (level.txt ->
// ../private/level.txt) is refused with a *LinkError; one that stays in
// dir is followed. The open never waits, as Open's.
func OpenIn(dir, name string) (*os.File, int64, error) {
	path := filepath.Join(dir, name)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, 0, err
	}
	defer root.Close() // the file stays open
	f, err := root.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		if st, lerr := root.Lstat(name); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			return nil, 0, &LinkError{Path: path}
		}
		return nil, 0, err
	}
	return regular(f, path)
}

// regular returns f with its size when it is a regular file, and closes
// it and refuses it otherwise.
func regular(f *os.File, path string) (*os.File, int64, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return f, st.Size(), nil
}
