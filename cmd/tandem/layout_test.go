package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLayoutLimits(t *testing.T) {
	// A house a newcomer can read: no non-test Go file of the module over
	// 500 lines, and the root package (the game API) at most 2,600: it
	// was 1,500 until sound (Setup.Sound, World.Play), a game's own
	// autoplay, the images' checks and MainWith came in, then 1,800 until
	// drawing (shapes, text in a font, shaders: draw.go, text.go,
	// shader.go), a game's own bench loads (Info.Loads) and the sound
	// device's buffer (Config.AudioBuffer), each asked for. The decoders and the PulseAudio client copied from upstream keep
	// upstream's shape, so a fix there stays a small diff (thirdParty).
	const root = "../.."
	var api int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") || thirdParty(root, path) {
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
	if api > 2600 || api == 0 {
		t.Errorf("the root package's non-test code: %d lines, want 1 to 2600", api)
	}
}

// thirdParty reports whether path (under root) is code copied from
// upstream (the decoders, the PulseAudio client, oto's WASAPI bindings) with its license and a
// README saying what changed: its shape is upstream's.
func thirdParty(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return false
	}
	switch filepath.ToSlash(rel) {
	case "audio/internal/mp3", "audio/internal/flac", "audio/internal/pulse", "audio/internal/wasapi":
		return true
	}
	return false
}

// goFiles calls f with every parsed non-test Go file of the module.
func goFiles(t *testing.T, f func(path string, fset *token.FileSet, file *ast.File)) {
	t.Helper()
	const root = "../.."
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "bin" || n == "out") || thirdParty(root, path) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		f(filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator))), fset, file)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestShapeLimits(t *testing.T) {
	// Code a newcomer can read a piece at a time: no non-test function
	// over 100 lines, and in the root package and internal/ no struct over
	// 25 fields but the JSON summary's (a contract scripts read).
	goFiles(t, func(path string, fset *token.FileSet, file *ast.File) {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if l := fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1; l > 100 {
					t.Errorf("%s: func %s is %d lines, over 100: split it", path, n.Name.Name, l)
				}
			case *ast.TypeSpec:
				st, ok := n.Type.(*ast.StructType)
				if !ok || n.Name.Name == "Summary" || strings.Contains(path, "/") && !strings.HasPrefix(path, "internal/") {
					return true
				}
				fields := 0
				for _, f := range st.Fields.List {
					fields += max(len(f.Names), 1)
				}
				if fields > 25 {
					t.Errorf("%s: struct %s has %d fields, over 25: give its parts owners of their own", path, n.Name.Name, fields)
				}
			}
			return true
		})
	})
}

func TestLauncherOnThePublicAPI(t *testing.T) {
	// The launcher is a program on the public API like any game: it
	// imports no internal package.
	goFiles(t, func(path string, _ *token.FileSet, file *ast.File) {
		if !strings.HasPrefix(path, "cmd/tandem/") {
			return
		}
		for _, imp := range file.Imports {
			if strings.Contains(imp.Path.Value, "/internal/") {
				t.Errorf("%s imports %s: the launcher uses the public API only", path, imp.Path.Value)
			}
		}
	})
}
