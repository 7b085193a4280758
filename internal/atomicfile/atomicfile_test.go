package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestSymlinkReplacedNotFollowed(t *testing.T) {
	// A symlink at the name (a bench folder from someone else's archive,
	// frame_time.png -> ~/.bashrc) is replaced; its target is untouched.
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(target, []byte("the user's file"), 0o644); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "frame_time.png")
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(name, func(w io.Writer) error { _, err := io.WriteString(w, "a chart"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "the user's file" {
		t.Fatalf("the symlink's target was written: %q", b)
	}
	fi, err := os.Lstat(name)
	if err != nil || fi.Mode()&os.ModeSymlink != 0 || !fi.Mode().IsRegular() {
		t.Fatalf("%s is still a symlink or missing: %v %v", name, fi, err)
	}
	if b, _ := os.ReadFile(name); string(b) != "a chart" {
		t.Fatalf("%s holds %q", name, b)
	}
	if want := fs.FileMode(0o666 &^ umask); fi.Mode().Perm() != want {
		t.Errorf("mode %v, want %v (as os.Create gives)", fi.Mode().Perm(), want)
	}
	assertOnly(t, dir, "bashrc", "frame_time.png")
}

func TestWholeOrAbsent(t *testing.T) {
	// Until Commit the name holds the old file; an error or an Abort leaves
	// it and no temporary file; RemovePending (a forced exit) likewise.
	dir := t.TempDir()
	name := filepath.Join(dir, "out.prof")
	os.WriteFile(name, []byte("old"), 0o644)
	f, err := Create(name)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half of the new"))
	if b, _ := os.ReadFile(name); string(b) != "old" {
		t.Fatalf("before Commit the name holds %q", b)
	}
	if !strings.HasPrefix(filepath.Base(f.TempName()), ".out.prof.") {
		t.Errorf("temporary name %s: want a hidden one beside the name", f.TempName())
	}
	f.Abort()
	if b, _ := os.ReadFile(name); string(b) != "old" {
		t.Fatalf("after Abort the name holds %q", b)
	}
	assertOnly(t, dir, "out.prof")

	boom := errors.New("boom")
	if err := WriteFile(name, func(w io.Writer) error { w.Write([]byte("x")); return boom }); !errors.Is(err, boom) {
		t.Fatalf("WriteFile: %v", err)
	}
	assertOnly(t, dir, "out.prof")

	f, _ = Create(name)
	f.Write([]byte("new"))
	if kept := removePending(t); len(kept) != 0 {
		t.Fatalf("RemovePending kept %v", kept)
	}
	if err := f.Commit(); !errors.Is(err, errExiting) {
		t.Fatalf("Commit after RemovePending: %v", err)
	}
	// An output begun after it, by a goroutine the exit has not stopped
	// yet (the final writes after a second Ctrl-C), makes no file.
	if err := WriteFile(name, func(w io.Writer) error { _, err := io.WriteString(w, "late"); return err }); !errors.Is(err, errExiting) {
		t.Fatalf("WriteFile after RemovePending: %v", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "old" {
		t.Fatalf("after a forced exit the name holds %q", b)
	}
	assertOnly(t, dir, "out.prof")
	reopen()

	if err := WriteFile(name, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(name); string(b) != "new" {
		t.Fatalf("after Commit the name holds %q", b)
	}
}

func TestPartialKept(t *testing.T) {
	// A recording's temporary file is visible and survives a forced exit:
	// what was recorded is worth replaying.
	dir := t.TempDir()
	name := filepath.Join(dir, "run.rec")
	f, err := CreatePartial(name)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("recorded"))
	if !strings.HasPrefix(filepath.Base(f.TempName()), "run.rec.partial-") {
		t.Fatalf("temporary name %s", f.TempName())
	}
	kept := removePending(t)
	if len(kept) != 1 || kept[0] != f.TempName() {
		t.Fatalf("RemovePending kept %v, want [%s]", kept, f.TempName())
	}
	if b, _ := os.ReadFile(f.TempName()); string(b) != "recorded" {
		t.Fatalf("the partial file holds %q", b)
	}
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Fatalf("the final name exists: %v", err)
	}
}

func TestDevice(t *testing.T) {
	// /dev/null is written directly: no temporary file beside it, and
	// Commit does not rename over it or fail on its sync.
	if _, err := os.Stat(os.DevNull); err != nil || os.DevNull != "/dev/null" {
		t.Skip("no /dev/null")
	}
	f, err := CreatePartial(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	if f.TempName() != "" {
		t.Fatalf("/dev/null written through %s", f.TempName())
	}
	f.Write([]byte("gone"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v %v", fi, err)
	}
}

func TestLinkToDeviceReplaced(t *testing.T) {
	// A symlink to a FIFO or a character device (a stranger's folder with
	// frame_time.png -> a FIFO, or -> /dev/tty) is replaced like any
	// link: not written through, and its target is still what it was.
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	targets := []string{os.DevNull}
	if err := mkfifo(fifo); err == nil {
		targets = append(targets, fifo)
	}
	for i, target := range targets {
		before, err := os.Stat(target)
		if err != nil {
			continue
		}
		name := filepath.Join(dir, fmt.Sprintf("chart%d.png", i))
		if err := os.Symlink(target, name); err != nil {
			t.Skipf("no symlinks: %v", err)
		}
		f, err := Create(name)
		if err != nil {
			t.Fatalf("%s -> %s: %v", name, target, err)
		}
		if f.TempName() == "" {
			f.Abort()
			t.Errorf("%s -> %s: written through the link", name, target)
			continue
		}
		f.Write([]byte("a chart"))
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(name); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: %v %v; want a regular file in the link's place", name, fi, err)
		}
		if after, err := os.Stat(target); err != nil || after.Mode() != before.Mode() {
			t.Errorf("%s: %v %v; want it as it was (%v)", target, after, err, before.Mode())
		}
	}
}

func TestSystemNames(t *testing.T) {
	// /dev/fd/N (as /dev/stdout, /proc/self/fd/1) is a link the system
	// makes to a process's own file: it is followed, and the pipe it
	// stands for written directly, not replaced.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, name := range []string{fmt.Sprintf("/dev/fd/%d", w.Fd()), fmt.Sprintf("/proc/self/fd/%d", w.Fd())} {
		if _, err := os.Stat(name); err != nil {
			continue
		}
		f, err := Create(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f.TempName() != "" {
			f.Abort()
			t.Fatalf("%s written through %s", name, f.TempName())
		}
		f.Write([]byte("x"))
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 1)
		if _, err := io.ReadFull(r, b); err != nil || string(b) != "x" {
			t.Errorf("%s: the pipe read %q, %v", name, b, err)
		}
	}
}

func TestSystemLinkToFile(t *testing.T) {
	// /dev/fd/N standing for a regular file (stdout redirected to one,
	// as /dev/stdout is then) is refused: a file renamed over it would
	// replace the system's link. A name deeper under /dev, such as
	// /dev/shm/x, is anyone's: a symlink there is not followed.
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, name := range []string{fmt.Sprintf("/dev/fd/%d", f.Fd()), fmt.Sprintf("/proc/self/fd/%d", f.Fd())} {
		if _, err := os.Stat(name); err != nil {
			continue
		}
		a, err := Create(name)
		if err == nil {
			a.Abort()
		}
		if err == nil || !strings.Contains(err.Error(), "give the file's own name") {
			t.Errorf("%s, a regular file: %v; want it refused", name, err)
		}
	}
	if filepath.Separator != '/' {
		return // no /dev, no /proc
	}
	for name, want := range map[string]bool{"/dev/stdout": true, "/dev/fd/1": true, "/proc/self/fd/1": true,
		"/proc/123/fd/4": true, "/dev/shm/x": false, "/dev/fd/1/x": false, "/proc/self/x": false, "/proc/a/b/fd/1": false, "/tmp/dev/stdout": false} {
		if got := systemLink(name); got != want {
			t.Errorf("systemLink(%s) = %v, want %v", name, got, want)
		}
	}
}

func TestRefused(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"", "-", dir, filepath.Join(dir, "no", "such")} {
		if f, err := Create(name); err == nil {
			f.Abort()
			t.Errorf("Create(%q) succeeded", name)
		}
	}
}

// assertOnly fails unless dir holds exactly names.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Fatalf("%s holds %v, want %v", dir, got, names)
	}
}

func TestWriteFileInReplacesFIFO(t *testing.T) {
	// A FIFO at a name the program chose in a folder (bench -out DIR's
	// report.json) is replaced, not written: no reader would fail the
	// write, a reader that does not read would hang it.
	dir := t.TempDir()
	name := filepath.Join(dir, "report.json")
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs on Windows")
	}
	if err := mkfifo(name); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- WriteFileIn(name, func(w io.Writer) error { _, err := w.Write([]byte("{}\n")); return err })
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("WriteFileIn on a FIFO has not returned in 10 s")
	}
	fi, err := os.Lstat(name)
	if b, _ := os.ReadFile(name); err != nil || !fi.Mode().IsRegular() || string(b) != "{}\n" {
		t.Errorf("%s: %v %v %q; want a regular file holding what was written", name, fi, err, b)
	}
	assertOnly(t, dir, "report.json")
}

// removePending is RemovePending in a test: what it closes is open again
// when the test ends.
func removePending(t *testing.T) []string {
	t.Cleanup(reopen)
	return RemovePending()
}

// reopen undoes RemovePending's refusal, which a process never needs.
func reopen() {
	mu.Lock()
	exiting = false
	mu.Unlock()
}
