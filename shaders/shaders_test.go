package shaders

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

func TestProgramsAreGLSL410Core(t *testing.T) {
	for _, p := range Programs() {
		for file, src := range map[string]string{p.VertFile: p.Vert, p.FragFile: p.Frag} {
			if !strings.HasPrefix(src, "#version 410 core\n") {
				t.Errorf("%s (program %s) does not start with #version 410 core", file, p.Name)
			}
		}
		if !strings.HasSuffix(p.VertFile, ".vert") || !strings.HasSuffix(p.FragFile, ".frag") {
			t.Errorf("program %s: stages %s, %s are swapped or misnamed", p.Name, p.VertFile, p.FragFile)
		}
	}
}

// TestEveryFileIsUsed catches a shader file added without a program, which
// would then never be compiled by the gl tests.
func TestEveryFileIsUsed(t *testing.T) {
	used := map[string]bool{}
	for _, p := range Programs() {
		used[p.VertFile], used[p.FragFile] = true, true
	}
	files, err := fs.Glob(FS, "*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !used[f] {
			t.Errorf("%s is embedded but no program uses it", f)
		}
	}
}

func TestSourceMissing(t *testing.T) {
	if _, err := Source("nope.vert"); err == nil || !strings.HasPrefix(err.Error(), "shaders: ") {
		t.Errorf("Source(nope.vert) error = %v, want a shaders: error", err)
	}
}

func ExamplePrograms() {
	for _, p := range Programs() {
		fmt.Println(p.Name, p.VertFile, p.FragFile)
	}
	// Output:
	// sprite sprite.vert sprite.frag
	// sprite-white sprite.vert sprite_white.frag
	// sprite-cut sprite.vert sprite_cut.frag
	// quad quad.vert tinted.frag
	// shape shape.vert shape.frag
	// post post.vert post.frag
	// ceiling ceiling.vert sprite.frag
	// ceiling-cut ceiling.vert sprite_cut.frag
	// ceiling-turn ceiling_turn.vert sprite.frag
	// ceiling-turn-cut ceiling_turn.vert sprite_cut.frag
}
