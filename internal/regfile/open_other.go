//go:build !unix

package regfile

import "os"

// open opens path read-only, after a look at what it is: where there is
// no O_NONBLOCK, something that is not a regular file is refused before
// it is opened.
func open(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return os.Open(path)
}

// nonBlock: no such flag here, and no FIFO in a folder to wait on.
const nonBlock = 0
