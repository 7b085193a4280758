// Package jsonline reads fields of the one-line JSON summaries tandem
// prints, for the tests of the engine and of the demo.
//
// Threads: any goroutine.
package jsonline

import (
	"encoding/json"
	"testing"
)

// Field returns one field of a JSON line, failing the test when the line
// is not JSON.
func Field(tb testing.TB, line, name string) any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		tb.Fatalf("JSON %q: %v", line, err)
	}
	return m[name]
}
