//go:build !gldebug

package gl

// check is called after every GL call. Without the gldebug build tag it does
// nothing and is inlined away.
func check(string) {}
