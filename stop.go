//go:build cgo

package tandem

import (
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// stopGrace is how long a stop asked for by a signal may take before the
// watchdog exits anyway: a frame of a million 512 px sprites takes minutes
// under llvmpipe, and the loop sees the signal only between frames.
const stopGrace = 5 * time.Second

// Why a run stopped, in the JSON's stopped_by.
const (
	stopSeconds = "seconds" // -seconds ran out
	stopSignal  = "signal"  // SIGINT or SIGTERM
	stopWindow  = "window"  // the window's close button
	stopKey     = "key"     // Esc
	stopContext = "context" // Run's context was done
)

// signalWatch turns SIGINT and SIGTERM into a stop request the frame loop
// sees between frames. A second signal exits at once with code 130, as a
// shell's Ctrl-C does; a stop that the loop has not finished within grace
// exits with a message. Either way the process does not hang.
type signalWatch struct {
	caught atomic.Bool
	sigs   chan os.Signal
	done   chan struct{}
}

func watchSignals(grace time.Duration, stderr io.Writer) *signalWatch {
	w := &signalWatch{sigs: make(chan os.Signal, 2), done: make(chan struct{})}
	signal.Notify(w.sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-w.sigs:
		case <-w.done:
			return
		}
		w.caught.Store(true)
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case s := <-w.sigs:
			fmt.Fprintf(stderr, "tandem: second %v: exiting at once, without the summary\n", s)
			exitNow(130)
		case <-t.C:
			fmt.Fprintf(stderr, "tandem: still running %v after the signal (a frame is taking that long): exiting without the summary\n", grace)
			exitNow(exitError)
		case <-w.done:
		}
	}()
	return w
}

// onForcedExit holds what must be undone even when the process exits
// without unwinding: the private Xvfb, which lives in its own session and
// would outlive tandem where the kernel does not stop it with tandem
// (diesWithParent).
var onForcedExit atomic.Pointer[func()]

// exitNow exits at once with code, after the cleanup of onForcedExit.
func exitNow(code int) {
	if f := onForcedExit.Load(); f != nil {
		(*f)()
	}
	os.Exit(code)
}

// close stops watching: the run is over.
func (w *signalWatch) close() {
	signal.Stop(w.sigs)
	close(w.done)
}

// checkOutputs checks, before anything runs, that every file the run will
// write at its end can be written: a typo in a path costs nothing.
func checkOutputs(o options) error {
	if o.screenshot != "" {
		if _, err := imageEncoder(o.screenshot); err != nil {
			return err
		}
		if err := checkWritable("-screenshot", o.screenshot); err != nil {
			return err
		}
	}
	for _, f := range []struct{ flag, path string }{{"-memprofile", o.memprofile}, {"-record", o.record}} {
		if f.path != "" {
			if err := checkWritable(f.flag, f.path); err != nil {
				return err
			}
		}
	}
	if o.shotDir != "." {
		if fi, err := os.Stat(o.shotDir); err != nil || !fi.IsDir() {
			return fmt.Errorf("-screenshot-dir %s: not a directory (create it first)", o.shotDir)
		}
	}
	return nil
}

// checkWritable reports whether a file can be created at path, without
// leaving one there: its directory exists and takes a new file.
func checkWritable(flag, path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s %s: the directory %s does not exist (create it, or fix the path)", flag, path, dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s %s: %s is not a directory", flag, path, dir)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s %s: is a directory; give a file name", flag, path)
	}
	f, err := os.CreateTemp(dir, ".tandem-check-*")
	if err != nil {
		return fmt.Errorf("%s %s: cannot write in %s: %w", flag, path, dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// imageEncoder returns the encoder a screenshot's name asks for: PNG for
// .png, JPEG for .jpg and .jpeg; anything else is refused rather than
// written as a PNG under another name.
func imageEncoder(name string) (func(io.Writer, image.Image) error, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png":
		return png.Encode, nil
	case ".jpg", ".jpeg":
		return func(w io.Writer, img image.Image) error { return jpeg.Encode(w, img, &jpeg.Options{Quality: 95}) }, nil
	}
	return nil, fmt.Errorf("-screenshot %s: want a name ending in .png, .jpg or .jpeg", name)
}

// writeImage writes img to name in the format its extension names.
func writeImage(name string, img image.Image) error {
	enc, err := imageEncoder(name)
	if err != nil {
		return err
	}
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := enc(f, img); err != nil {
		f.Close()
		return fmt.Errorf("screenshot %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("screenshot %s: %w", name, err)
	}
	return nil
}
