package app

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSimthreadDocNamesEveryLoop checks that simthread's package doc and
// Runner's doc stay in step with the loops a user can choose: every value
// of -loop is named there, and nothing says there are three loops (there
// are three ways to run the sim, serving four loops).
func TestSimthreadDocNamesEveryLoop(t *testing.T) {
	dir := filepath.Join("..", "..", "simthread")
	fset := token.NewFileSet()
	var docs []string
	for _, name := range []string{"doc.go", "runner.go"} {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for _, c := range f.Comments {
			text.WriteString(c.Text())
		}
		docs = append(docs, text.String())
	}
	all := strings.Join(docs, "\n")
	if !strings.Contains(docs[0], "four loops") {
		t.Errorf("simthread's package doc does not say how it serves the four loops:\n%s", docs[0])
	}
	for _, l := range Loops {
		if !regexp.MustCompile(`\b` + string(l) + `\b`).MatchString(docs[0]) {
			t.Errorf("simthread's package doc never names the %s loop", l)
		}
	}
	if m := regexp.MustCompile(`(?i)(one of|all) three loops`).FindString(all); m != "" {
		t.Errorf("simthread's docs say %q: there are %d loops", m, len(Loops))
	}
}
