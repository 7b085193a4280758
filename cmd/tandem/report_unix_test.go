//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/bench"
)

// TestReportHostileFolder checks tandem report on a bench folder from
// someone else's archive, one of whose files is a FIFO (the report hung
// forever), a link to /dev/zero (it ran out of memory) or a file over its
// cap: each is refused at once, by its name, before a byte is read.
func TestReportHostileFolder(t *testing.T) {
	fifo := func(p string) error { return syscall.Mkfifo(p, 0o600) }
	zero := func(p string) error { return os.Symlink("/dev/zero", p) }
	sparse := func(n int64) func(string) error {
		return func(p string) error { // no disk used
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				return err
			}
			return os.Truncate(p, n)
		}
	}
	for _, c := range []struct {
		name, file string // the case; the file planted, in the run's folder or a cell's
		matrix     bool
		plant      func(string) error
		want       string // in stderr; "" for exit 0
	}{
		{"frames-fifo", "frames.csv", false, fifo, "frames.csv is a FIFO, not a regular file"},
		{"frames-zero", "frames.csv", false, zero, "frames.csv is a character device, not a regular file"},
		{"ticks-big", "ticks.csv", false, sparse(bench.MaxCSVBytes + 1),
			fmt.Sprintf("ticks.csv: %d bytes, over the %d-byte cap of a bench folder's file", bench.MaxCSVBytes+1, bench.MaxCSVBytes)},
		{"title-fifo", "report.json", false, fifo, ""}, // the charts' title only: drawn without it
		{"cell-json-fifo", "report.json", true, fifo, "report.json is a FIFO, not a regular file"},
		{"cell-json-zero", "report.json", true, zero, "report.json is a character device, not a regular file"},
		{"cell-json-big", "report.json", true, sparse(bench.MaxJSONBytes + 1),
			fmt.Sprintf("report.json: %d bytes, over the %d-byte cap of a bench folder's file", bench.MaxJSONBytes+1, bench.MaxJSONBytes)},
		{"cell-frames-fifo", "frames.csv", true, fifo, "frames.csv is a FIFO, not a regular file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			cell := "loop=coupled-simcost=0s-sprites=1000-rep0"
			writeCell(t, root, cell, map[string]any{"loop": "coupled", "simcost": "0s", "fps_mean": 60.0})
			dir, at := root, filepath.Join(root, "cells", cell)
			if !c.matrix {
				dir = at // a single run's folder: the files, no cells
			}
			path := filepath.Join(at, c.file)
			os.Remove(path)
			if err := c.plant(path); err != nil {
				t.Fatal(err)
			}
			var out, errs bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- report([]string{dir}, &out, &errs) }()
			var code int
			select {
			case code = <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("tandem report %s still running after 10 s", dir)
			}
			if c.want == "" {
				if code != 0 {
					t.Errorf("exit %d: %.400s", code, errs.String())
				}
				return
			}
			// The hint for a folder that is no bench report is for a
			// missing file, not for one refused.
			if code != 1 || !strings.Contains(errs.String(), path) || !strings.Contains(errs.String(), c.want) || strings.Contains(errs.String(), "a bench report?") {
				t.Errorf("exit %d, %.400q; want 1 and %q naming %s", code, errs.String(), c.want, path)
			}
		})
	}
}
