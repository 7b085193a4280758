package scene

import (
	"testing"

	"github.com/tandem-engine/tandem/fmacheck"
)

// TestNoFusedMultiplyAdd: the demo's worlds keep physics's rule, every
// product that feeds a sum rounded first, so that their state hashes are
// the same on every machine.
func TestNoFusedMultiplyAdd(t *testing.T) { fmacheck.Check(t) }
