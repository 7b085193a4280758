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
