package physics

import (
	"testing"

	"github.com/tandem-engine/tandem/fmacheck"
)

// TestNoFusedMultiplyAdd: no product in this package may fuse into an FMA
// on arm64 (see the package comment).
func TestNoFusedMultiplyAdd(t *testing.T) { fmacheck.Check(t) }
