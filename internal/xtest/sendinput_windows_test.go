package xtest

import (
	"os"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// INPUT's size is what SendInput checks its cbSize against: a wrong
// layout inserts nothing.
func TestSendInputLayout(t *testing.T) {
	want := uintptr(28)
	if unsafe.Sizeof(uintptr(0)) == 8 {
		want = 40
	}
	if got := unsafe.Sizeof(keyboardInput{}); got != want {
		t.Fatalf("keyboardInput is %d bytes, INPUT is %d", got, want)
	}
	if got := unsafe.Offsetof(keyboardInput{}.ki); got != unsafe.Sizeof(uintptr(0)) {
		t.Fatalf("KEYBDINPUT at offset %d, want %d", got, unsafe.Sizeof(uintptr(0)))
	}
}

// The function keys map to VK_F1..VK_F12, F9 to VK_F9 (0x78); any other
// keysym is refused with an error that names the keys it takes.
func TestSendInputKeycodes(t *testing.T) {
	var c conn
	for i := range Keysym(12) {
		vk, err := c.keycode(0xffbe + i)
		if err != nil || vk != 0x70+uint32(i) {
			t.Fatalf("F%d: virtual key %#x, %v; want %#x", i+1, vk, err, 0x70+i)
		}
	}
	if vk, _ := c.keycode(F9); vk != 0x78 {
		t.Fatalf("F9: virtual key %#x, want 0x78", vk)
	}
	for _, sym := range []Keysym{0, 'a', 0xffbd, 0xffca} {
		if _, err := c.keycode(sym); err == nil {
			t.Fatalf("keysym %#x: no error", uint32(sym))
		}
	}
}

// Presses and releases through SendInput are inserted, each stamped in
// order (At <= Acked, the next At after the last Acked), within a
// millisecond-scale call, and Close leaves no key down.
func TestSendInputStamps(t *testing.T) {
	in, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if in.Source() != "sendinput" {
		t.Fatalf("Source() = %q, want sendinput", in.Source())
	}
	var last int64
	for i := range 10 {
		send := in.Press
		if i%2 == 1 {
			send = in.Release
		}
		st, err := send(F9)
		if err != nil {
			t.Fatal(err)
		}
		if st.At < last || st.Acked < st.At || time.Duration(st.Acked-st.At) > time.Second {
			t.Fatalf("edge %d: stamps %+v after %d: out of order or over a second", i, st, last)
		}
		last = st.Acked
	}
	in.Press(F9)
	if err := in.Close(); err != nil {
		t.Fatalf("close with F9 down: %v", err)
	}
}

// Focus finds a process's windows through EnumWindows: this test program
// has none, so Focus says so, and as often as asked (its callback is made
// once); FocusedPID answers without an error, with or without a window
// in front.
func TestSendInputFocus(t *testing.T) {
	in, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	for range 2100 { // more than the 2000 callbacks Go lets a process make
		if err := in.Focus(os.Getpid()); err == nil || !strings.Contains(err.Error(), "no visible window") {
			t.Fatalf("Focus of a process without a window: %v", err)
		}
	}
	if pid, err := in.FocusedPID(); err != nil || pid < 0 {
		t.Fatalf("FocusedPID: %d, %v", pid, err)
	}
}
