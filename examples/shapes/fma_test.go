package main

import (
	"testing"

	"github.com/tandem-engine/tandem/fmacheck"
)

// TestNoFusedMultiplyAdd: the example's ship moves by products that feed
// sums, rounded first, so that a recording replays to the same hashes on
// every machine.
func TestNoFusedMultiplyAdd(t *testing.T) { fmacheck.Check(t) }
