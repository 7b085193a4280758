//go:build unix

package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "level.txt")
	if err := os.WriteFile(file, []byte("###\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, n, err := Open(file)
	if err != nil || n != 4 {
		t.Fatalf("a regular file: %v, %d bytes", err, n)
	}
	f.Close()
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err == nil {
		if f, _, err := Open(link); err != nil {
			t.Errorf("a link to a regular file: %v", err)
		} else {
			f.Close()
		}
	}
	fifo := filepath.Join(dir, "fifo")
	cases := map[string]string{dir: "a directory", "/dev/zero": "a character device"}
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		cases[fifo] = "a FIFO"
	}
	for path, kind := range cases {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		start := time.Now()
		_, _, err := Open(path) // a FIFO with no writer: refused, not waited on
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Path != path || Kind(nr.Mode) != kind {
			t.Errorf("%s: %v; want %s refused", path, err, kind)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: refused after %v", path, d)
		}
	}
	if _, _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

func TestOpenIn(t *testing.T) {
	// A folder someone else filled, beside a private file.
	top := t.TempDir()
	dir := filepath.Join(top, "shared")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	private := filepath.Join(top, "private.txt")
	for _, f := range []string{filepath.Join(dir, "level.txt"), private} {
		if err := os.WriteFile(f, []byte("###\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, n, err := OpenIn(dir, "level.txt")
	if err != nil || n != 4 {
		t.Fatalf("a regular file: %v, %d bytes", err, n)
	}
	f.Close()
	// A link that stays in the folder is followed.
	if err := os.Symlink("level.txt", filepath.Join(dir, "same")); err != nil {
		t.Fatal(err)
	}
	if f, n, err := OpenIn(dir, "same"); err != nil || n != 4 {
		t.Errorf("a link within the folder: %v, %d bytes", err, n)
	} else {
		f.Close()
	}
	// Out of the folder: by a link, by an absolute link, by "..".
	for link, target := range map[string]string{"up": "../private.txt", "abs": private} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
		_, _, err := OpenIn(dir, link)
		var le *LinkError
		if !errors.As(err, &le) || le.Path != filepath.Join(dir, link) {
			t.Errorf("a link to %s: %v; want a *LinkError naming it", target, err)
		}
	}
	if f, _, err := OpenIn(dir, "../private.txt"); err == nil {
		f.Close()
		t.Error(`"../private.txt" opened the file outside the folder`)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		var nr *NotRegularError
		start := time.Now()
		if _, _, err := OpenIn(dir, "fifo"); !errors.As(err, &nr) || time.Since(start) > 5*time.Second {
			t.Errorf("a FIFO: %v after %v; want it refused at once", err, time.Since(start))
		}
	}
	if _, _, err := OpenIn(dir, "missing"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
