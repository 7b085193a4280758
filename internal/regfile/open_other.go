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

// openNoFollow is open after a look that path is no symbolic link: where
// there is no O_NOFOLLOW, a link is refused before it is opened.
func openNoFollow(path string) (*os.File, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode()&os.ModeSymlink != 0 {
		return nil, &LinkError{Path: path}
	}
	return open(path)
}
