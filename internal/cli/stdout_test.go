package cli

import (
	"fmt"
	"io"
	"os"
	"testing"
)

// TestOwnStdout: once Main owns stdout, a library's print to os.Stdout
// (the PulseAudio client prints a number on a packet it does not know)
// goes to stderr, while the command's own output still reaches stdout,
// and an output named by stdout's file is still known as stdout.
func TestOwnStdout(t *testing.T) {
	outR, outW, _ := os.Pipe()
	errR, errW, _ := os.Pipe()
	savedOut, savedErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = outW, errW
	defer func() { os.Stdout, os.Stderr, ownStdout = savedOut, savedErr, nil }()

	own := OwnStdout()
	fmt.Println(42) // as jfreymuth/pulse's proto.Client does
	fmt.Fprintln(own, `{"state_hash":"x"}`)
	isOwn := isStdout(fmt.Sprintf("/proc/self/fd/%d", outW.Fd()))
	outW.Close()
	errW.Close()
	out, _ := io.ReadAll(outR)
	errs, _ := io.ReadAll(errR)
	if string(out) != "{\"state_hash\":\"x\"}\n" || string(errs) != "42\n" {
		t.Errorf("stdout %q, stderr %q; want the JSON alone on stdout and the stray print on stderr", out, errs)
	}
	if !isOwn {
		t.Errorf("stdout's own file is not taken for stdout once owned")
	}
}
