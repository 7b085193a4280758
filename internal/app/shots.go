//go:build cgo

package app

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/window"
)

// shots is the screenshots' add-on: F12 saves the frame it is pressed
// in to a file of its own in a folder, and the frame drawn after the run
// (frameEnd.exit) is read back for -screenshot, which the session writes
// with the summary. The last of the overlays: it reads back what the
// others drew.
type shots struct {
	noHooks
	dir     string      // where F12 writes
	pending atomic.Bool // F12 was pressed: save this frame
	err     error       // the last F12 screenshot's failure, reported at exit
	last    *image.RGBA
	frame   bench.FrameRecord // the newest frame drawn, capture included
}

// newShots saves F12's screenshots in dir, with F12 set in keys.
func newShots(dir string, keys *bindings) *shots {
	sh := &shots{dir: dir}
	keys.act(window.KeyF12, func() { sh.pending.Store(true) })
	return sh
}

// overlay keeps the frame's record and, for F12 or the screenshot at
// exit, reads the frame back before it is swapped away.
func (sh *shots) overlay(e frameEnd, fw, fh int, _ int64) {
	sh.frame = e.rec
	if !e.exit && !sh.pending.Load() {
		return
	}
	sh.last = gl.ReadPixels(0, 0, fw, fh)
	if sh.pending.Swap(false) {
		name := filepath.Join(sh.dir, "tandem-"+time.Now().Format("20060102-150405.000")+".png")
		if err := writeImage(name, sh.last); err != nil {
			sh.err = err
		} else {
			fmt.Fprintf(os.Stderr, "tandem: screenshot %s\n", name)
		}
	}
}
