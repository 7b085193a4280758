package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// The command line starts two kinds of process: its private Xvfb and the
// bench's cells. It does so with os.StartProcess, the primitive every Go
// program links, not os/exec, so that a game built on tandem.Main links
// no more process machinery than any Go program.

// child is a started process whose output is being copied.
type child struct {
	proc   *os.Process
	copies sync.WaitGroup
}

// spawn starts path with args and extra files (fd 3 on) and copies its
// stdout and stderr to the writers given (nil: discarded). sys sets the
// process's attributes; nil: none.
func spawn(path string, args []string, stdout, stderr io.Writer, extra []*os.File, sys *syscall.SysProcAttr) (*child, error) {
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return nil, err
	}
	defer devnull.Close()
	c := &child{}
	files := []*os.File{devnull}
	var ours []*os.File // the child's ends of the pipes: closed here once it has them
	for _, w := range []io.Writer{stdout, stderr} {
		if w == nil {
			files = append(files, devnull)
			continue
		}
		r, wr, err := os.Pipe()
		if err != nil {
			closeAll(ours)
			return nil, err
		}
		files, ours = append(files, wr), append(ours, wr)
		c.copies.Add(1)
		go func() {
			defer c.copies.Done()
			io.Copy(w, r)
			r.Close()
		}()
	}
	c.proc, err = os.StartProcess(path, append([]string{path}, args...),
		&os.ProcAttr{Files: append(files, extra...), Sys: sys})
	closeAll(ours)
	if err != nil {
		c.copies.Wait()
		return nil, err
	}
	return c, nil
}

// wait waits for the process to exit and its output to be copied, and
// returns an error unless it exited with status 0.
func (c *child) wait() error {
	st, err := c.proc.Wait()
	c.copies.Wait()
	if err != nil {
		return err
	}
	if !st.Success() {
		return fmt.Errorf("%v", st)
	}
	return nil
}

func closeAll(fs []*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// lookPath finds the executable file in the directories of $PATH.
func lookPath(file string) (string, error) {
	if strings.Contains(file, "/") {
		return file, executable(file)
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, file)
		if executable(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found in $PATH", file)
}

func executable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case fi.IsDir() || fi.Mode()&0o111 == 0:
		return errors.New(path + ": not an executable file")
	}
	return nil
}
