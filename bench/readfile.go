package bench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tandem-engine/tandem/internal/regfile"
)

// A bench folder read back (tandem report DIR, a sweep reading its cells)
// may have come from someone else's archive. Each of its files is opened
// through [regfile.Open] (a regular file, opened without waiting: a FIFO
// would hang the reader, /dev/zero never ends) and read to a cap, so that
// reading one costs at most the cap whatever the file holds.
const (
	// MaxCSVBytes caps frames.csv and ticks.csv: a bench keeps at most
	// 131,072 frames and 262,144 ticks, about 25 MB of CSV each.
	MaxCSVBytes = 64 << 20
	// MaxJSONBytes caps report.json, a summary of a few KB.
	MaxJSONBytes = 1 << 20
)

// TooBigError is a bench folder's file over its cap.
type TooBigError struct {
	Path      string
	Size, Max int64
	WhileRead bool // it grew past the cap while it was read: Size is what was read
}

// Error names the file, its size and the cap.
func (e *TooBigError) Error() string {
	size := fmt.Sprintf("%d bytes", e.Size)
	if e.WhileRead {
		size = fmt.Sprintf("over %d bytes read", e.Size)
	}
	return fmt.Sprintf("%s: %s, over the %d-byte cap of a bench folder's file", e.Path, size, e.Max)
}

// openCapped opens path, a regular file of at most max bytes, and returns
// it with a reader of it that fails once more than max bytes were read (a
// file that grew after it was opened). The caller closes the file.
func openCapped(path string, max int64) (*os.File, io.Reader, error) {
	f, size, err := regfile.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if size > max {
		f.Close()
		return nil, nil, &TooBigError{Path: path, Size: size, Max: max}
	}
	return f, &cappedReader{r: f, path: path, max: max}, nil
}

// cappedReader reads r and fails once more than max bytes came from it.
type cappedReader struct {
	r      io.Reader
	path   string
	n, max int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		return n, &TooBigError{Path: c.path, Size: c.n, Max: c.max, WhileRead: true}
	}
	return n, err
}

// ReadFile reads a bench folder's file whole (report.json: give
// [MaxJSONBytes]), refusing one that is not a regular file or holds more
// than max bytes; its errors name the file.
func ReadFile(path string, max int64) ([]byte, error) {
	f, r, err := openCapped(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, readErr(path, err)
	}
	return b, nil
}

// ReadCSVFile reads the records of the CSV file at path with read
// (ReadFramesCSV, ReadTicksCSV), refusing one that is not a regular file
// or holds more than [MaxCSVBytes]; its errors name the file.
func ReadCSVFile[T any](path string, read func(io.Reader) ([]T, error)) ([]T, error) {
	f, r, err := openCapped(path, MaxCSVBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := read(bufio.NewReader(r))
	if err != nil {
		return nil, readErr(path, err)
	}
	return recs, nil
}

// ScanCSVFile hands the CSV file at path to scan (a ScanFramesCSV
// wrapped), refusing one that is not a regular file or holds more than
// [MaxCSVBytes], holding none of its records; its errors name the file.
func ScanCSVFile(path string, scan func(io.Reader) error) error {
	f, r, err := openCapped(path, MaxCSVBytes)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := scan(bufio.NewReaderSize(r, 64<<10)); err != nil {
		return readErr(path, err)
	}
	return nil
}

// readErr names path in err, once: a file over its cap is named already.
func readErr(path string, err error) error {
	if tb := (*TooBigError)(nil); errors.As(err, &tb) {
		return tb
	}
	return fmt.Errorf("%s: %w", path, err)
}
