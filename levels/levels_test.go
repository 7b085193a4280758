package levels_test

import (
	"testing"

	"github.com/tandem-engine/tandem/levels"
	"github.com/tandem-engine/tandem/physics"
)

func TestDemoMatchesFile(t *testing.T) {
	emb, err := levels.Demo()
	if err != nil {
		t.Fatal(err)
	}
	file, err := physics.LoadLevel("demo.txt")
	if err != nil {
		t.Fatal(err)
	}
	if emb.String() != file.String() || len(emb.Coins) != len(file.Coins) || len(emb.Coins) == 0 {
		t.Fatal("the embedded demo level differs from levels/demo.txt")
	}
}
