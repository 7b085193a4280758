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

func TestOpenNoFollow(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "level.txt")
	if err := os.WriteFile(file, []byte("###\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, n, err := OpenNoFollow(file)
	if err != nil || n != 4 {
		t.Fatalf("a regular file: %v, %d bytes", err, n)
	}
	f.Close()
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	_, _, err = OpenNoFollow(link)
	var le *LinkError
	if !errors.As(err, &le) || le.Path != link {
		t.Errorf("a link to a regular file: %v; want a *LinkError naming it", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		var nr *NotRegularError
		if _, _, err := OpenNoFollow(fifo); !errors.As(err, &nr) {
			t.Errorf("a FIFO: %v; want it refused at once", err)
		}
	}
	if _, _, err := OpenNoFollow(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
