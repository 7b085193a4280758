package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tandem-engine/tandem/internal/atomicfile"
)

// CheckOutput reports whether a file can be written at path, before the
// run: its directory exists, and a file with the temporary name the
// output is written under (see package atomicfile) can be created there,
// which also checks the name's length and characters. It leaves nothing
// behind and does not touch a file at path. A device or pipe at path
// (/dev/null) is written directly and needs no check. With image, the
// name must also end in .png, .jpg or .jpeg.
func CheckOutput(path string, image bool) error {
	if image {
		if _, err := ImageEncoder(path); err != nil {
			return err
		}
	}
	if fi, err := atomicfile.Stat(path); err == nil {
		switch {
		case fi.IsDir():
			return errors.New("is a directory; give a file name")
		case atomicfile.Direct(fi.Mode()):
			return nil
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
	f, err := atomicfile.Create(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is in the caller's message
		}
		return fmt.Errorf("cannot create it: %w", err)
	}
	f.Abort()
	return nil
}
