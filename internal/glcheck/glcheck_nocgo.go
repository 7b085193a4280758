//go:build !cgo

package glcheck

import "github.com/tandem-engine/tandem/internal/engine"

// Shaders checks nothing in a build without cgo, which opens no window
// either.
func Shaders([]engine.Shader) (ran bool, driver string, err error) { return false, "", nil }
