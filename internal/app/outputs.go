package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CheckOutput reports whether a file can be written at path, before the
// run: its directory exists, the name is one the file system takes (its
// length, its characters), and the file can be created or opened for
// writing. It leaves nothing behind: a file it made is removed, one that
// exists is not touched. With image, the name must also end in .png,
// .jpg or .jpeg.
func CheckOutput(path string, image bool) error {
	if image {
		if _, err := ImageEncoder(path); err != nil {
			return err
		}
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("the directory %s does not exist (create it, or fix the path)", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return errors.New("is a directory; give a file name")
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot write it: %w", err)
		}
		return f.Close()
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is in the caller's message
		}
		return fmt.Errorf("cannot create it: %w", err)
	}
	f.Close()
	return os.Remove(path)
}
