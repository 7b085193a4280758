package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLayoutLimits(t *testing.T) {
	// A house a newcomer can read: no non-test Go file of the module over
	// 500 lines, and the root package (the game API) at most 1,500.
	const root = "../.."
	var api int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lines := bytes.Count(b, []byte("\n"))
		if lines > 500 {
			t.Errorf("%s: %d lines, over 500: split it by concern", path, lines)
		}
		if filepath.Dir(path) == root {
			api += lines
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if api > 1500 || api == 0 {
		t.Errorf("the root package's non-test code: %d lines, want 1 to 1500", api)
	}
}
