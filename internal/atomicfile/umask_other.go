//go:build !unix

package atomicfile

// umask: none where there is no umask.
const umask = 0
