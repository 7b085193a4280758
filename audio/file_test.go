//go:build unix

package audio

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// countFS is os.DirFS counting the reads of its files and their bytes.
type countFS struct {
	fs.FS
	reads, bytes *int64
	fail         error // every read fails with it, when set
}

type countFile struct {
	fs.File
	c countFS
}

// Stat is os.DirFS's, which does not open the file.
func (c countFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

func (c countFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return countFile{f, c}, nil
}

func (f countFile) Read(p []byte) (int, error) {
	if f.c.fail != nil {
		return 0, f.c.fail
	}
	n, err := f.File.Read(p)
	*f.c.reads++
	*f.c.bytes += int64(n)
	return n, err
}

func (f countFile) Seek(off int64, whence int) (int64, error) {
	return f.File.(io.Seeker).Seek(off, whence)
}

// loadBounded loads name from dir through a countFS, failing the test if
// Load has not returned within a minute (a FIFO's open blocks forever).
func loadBounded(t *testing.T, dir, name string, fail error) (s *Sound, err error, reads, bytes int64) {
	t.Helper()
	fsys := countFS{FS: os.DirFS(dir), reads: &reads, bytes: &bytes, fail: fail}
	done := make(chan struct{})
	go func() { s, err = Load(fsys, name); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("Load(%s) has not returned in a minute", name)
	}
	return s, err, reads, bytes
}

// TestForgedFiles: a sound file is opened only when regular, its claims
// are bounded by its size with the work to refuse it bounded by the
// content (counted reads, not time), every read error is named, and no
// file's bytes appear in a message.
func TestForgedFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.wav"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "dir.wav"), 0o755); err != nil {
		t.Fatal(err)
	}
	sparse := func(name string, head []byte, size int64) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.Write(head); err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
	}
	// A gigabyte that starts RIFF/WAVE, zeros after: no chunk to walk.
	sparse("huge.wav", []byte("RIFF\xf8\xff\xff\x3fWAVE"), 1<<30)
	// Three MP3 frames and 100 MB of zeros.
	mp3, err := os.ReadFile("testdata/speech.mp3")
	if err != nil {
		t.Fatal(err)
	}
	p := 10 + int(mp3[9])
	for range 3 {
		p += int(mp3FrameBytes(mp3[p:]))
	}
	sparse("zeros.mp3", mp3[10+int(mp3[9]):p], 100<<20)
	secret := "PRIVATE-KEY-0123456789"
	sparse("secret.wav", []byte(secret), int64(len(secret)))

	for _, c := range []struct {
		name, want string
		maxBytes   int64
	}{
		{"fifo.wav", "fifo.wav: a FIFO, not a regular file", 0},
		{"dir.wav", "dir.wav: a directory, not a regular file", 0},
		{"huge.wav", "huge.wav: WAV: byte 12 is not a chunk", fileReadSize},
		{"zeros.mp3", "zeros.mp3: MP3: more than 1048576 bytes", 2*maxMP3Junk + 2*fileReadSize},
		{"secret.wav", "secret.wav: neither WAV, MP3 nor FLAC", fileReadSize},
	} {
		s, err, reads, bytes := loadBounded(t, dir, c.name, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, %v; want an error saying %q", c.name, s, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), "PRIVATE") || strings.Contains(err.Error(), "50 52 49") {
			t.Errorf("%s: the error quotes the file's bytes: %v", c.name, err)
		}
		if bytes > c.maxBytes || reads > c.maxBytes/1024+8 {
			t.Errorf("%s: refused after %d reads of %d bytes; want at most %d bytes in large reads", c.name, reads, bytes, c.maxBytes)
		}
		t.Logf("%s: %v (%d reads, %d bytes)", c.name, err, reads, bytes)
	}

	// A read error is named, not dropped.
	os.WriteFile(filepath.Join(dir, "ok.wav"), wavBytes(8000, 1, 16, 1, make([][2]float64, 100)), 0o644)
	ioErr := errors.New("input/output error")
	if _, err, _, _ := loadBounded(t, dir, "ok.wav", ioErr); err == nil || !strings.Contains(err.Error(), "ok.wav: input/output error") {
		t.Errorf("a read that fails: %v; want the file and the read's error", err)
	}
	// A long MP3 streams in large reads: the whole file decoded, counted.
	long := append([]byte(nil), mp3...)
	for len(long) < 1<<20 {
		long = append(long, mp3[10+int(mp3[9]):]...)
	}
	os.WriteFile(filepath.Join(dir, "long.mp3"), long, 0o644)
	if _, err, reads, bytes := loadBounded(t, dir, "long.mp3", nil); err != nil || reads > 4*bytes/fileReadSize+16 {
		t.Errorf("a long MP3: %v, %d reads of %d bytes; want reads of %d bytes", err, reads, bytes, fileReadSize)
	}
}
