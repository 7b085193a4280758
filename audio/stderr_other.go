//go:build cgo && !unix

package audio

// quietStderr does nothing where no C library writes to stderr as the
// device opens (WASAPI on Windows).
func quietStderr() (restore func()) { return func() {} }
