package replay

import "io"

// NewManualWriter is NewWriter without the flush every FlushEvery: its
// chunks end where the test calls Flush, however slow the machine, so
// the bytes it writes are the same every run.
func NewManualWriter(w io.Writer, h Header) (*Writer, error) { return newWriter(w, h, "recording", 0) }
