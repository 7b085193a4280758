package audio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/tandem-engine/tandem/internal/regfile"
)

// A sound file is untrusted like every other file a game is given: it is
// opened only when it is a regular file (a FIFO would block the open and
// every read, a device never ends, a directory is no sound), its size is
// the open file's own, and it is read in large reads whatever the decoder
// asks for (go-mp3 reads a byte at a time while it looks for a frame).

// fileReadSize is how much a sound file is read at a time.
const fileReadSize = 64 << 10

// openRegular opens p in fsys when it is a regular file: checked before
// the open (an os.DirFS would block opening a FIFO with no writer) and
// again on the open file. It returns the file with its size.
func openRegular(fsys fs.FS, p string) (fs.File, int64, error) {
	st, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		return nil, 0, notRegular(st.Mode())
	}
	f, err := fsys.Open(p)
	if err != nil {
		return nil, 0, err
	}
	st, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, notRegular(st.Mode())
	}
	return f, st.Size(), nil
}

func notRegular(m fs.FileMode) error {
	return fmt.Errorf("%s, not a regular file: give a WAV or MP3 file", regfile.Kind(m))
}

// bufReadSeeker reads a file fileReadSize bytes at a time and seeks
// within what it holds without a system call.
type bufReadSeeker struct {
	rs   io.ReadSeeker
	buf  []byte
	r, w int   // buf[r:w] is unread
	pos  int64 // the file's offset of buf[w]
}

func newBufReadSeeker(rs io.ReadSeeker) *bufReadSeeker {
	return &bufReadSeeker{rs: rs, buf: make([]byte, fileReadSize)}
}

func (b *bufReadSeeker) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if b.r == b.w {
		if len(p) >= len(b.buf) { // a large read goes straight to the file
			n, err := b.rs.Read(p)
			b.pos += int64(n)
			b.r, b.w = 0, 0
			return n, err
		}
		n, err := b.rs.Read(b.buf)
		b.pos += int64(n)
		b.r, b.w = 0, n
		if n == 0 {
			if err == nil {
				err = io.ErrNoProgress
			}
			return 0, err
		}
	}
	n := copy(p, b.buf[b.r:b.w])
	b.r += n
	return n, nil
}

func (b *bufReadSeeker) Seek(off int64, whence int) (int64, error) {
	var at int64
	switch whence {
	case io.SeekStart:
		at = off
	case io.SeekCurrent:
		at = b.pos - int64(b.w-b.r) + off
	case io.SeekEnd:
		n, err := b.rs.Seek(off, io.SeekEnd)
		b.r, b.w, b.pos = 0, 0, n
		return n, err
	default:
		return 0, errors.New("seek: bad whence")
	}
	if at < 0 {
		return 0, errors.New("seek: before the start")
	}
	if lo := b.pos - int64(b.w); at >= lo && at <= b.pos { // within what is held
		b.r = int(at - lo)
		return at, nil
	}
	n, err := b.rs.Seek(at, io.SeekStart)
	b.r, b.w, b.pos = 0, 0, n
	return n, err
}
