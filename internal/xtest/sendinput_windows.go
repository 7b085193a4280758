//go:build windows

package xtest

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/tandem-engine/tandem/snapshot"
)

// source names this build's injector in the bench's summary.
const source = "sendinput"

// On Windows the injector is user32's SendInput: the event enters the
// system's input stream as a keyboard's would, after the hardware, and
// goes to the thread of the foreground window, where GLFW's window
// procedure receives it as WM_KEYDOWN or WM_KEYUP. SendInput needs no
// connection: conn only holds the calls. golang.org/x/sys/windows does not
// wrap SendInput, SetForegroundWindow or MapVirtualKeyW.
var (
	user32                  = windows.NewLazySystemDLL("user32.dll")
	procSendInput           = user32.NewProc("SendInput")
	procSetForegroundWindow = user32.NewProc("SetForegroundWindow")
	procMapVirtualKeyW      = user32.NewProc("MapVirtualKeyW")
)

const (
	inputKeyboard  = 1 // INPUT_KEYBOARD
	keyeventfKeyUp = 2 // KEYEVENTF_KEYUP
	mapvkVKToVSC   = 0 // MAPVK_VK_TO_VSC
)

// keyboardInput is winuser.h's INPUT with its KEYBDINPUT arm. The union
// is as large as its largest arm, MOUSEINPUT, which is 8 bytes longer than
// KEYBDINPUT on 32-bit and 64-bit Windows alike; Go aligns ki as C aligns
// the union (to a pointer), so the size is INPUT's: 40 bytes, or 28.
type keyboardInput struct {
	typ uint32
	ki  keybdInput
	_   [8]byte
}

// keybdInput is winuser.h's KEYBDINPUT.
type keybdInput struct {
	vk    uint16
	scan  uint16
	flags uint32
	time  uint32
	extra uintptr
}

// conn holds nothing: SendInput needs no connection.
type conn struct{}

// openConn always succeeds: every desktop session takes SendInput. Where
// the events cannot go (a locked workstation, a window of a higher
// integrity level in front), SendInput's error says so at the first press.
func openConn(string) (*conn, error) { return &conn{}, nil }

// keycode returns the Windows virtual key of sym: the function keys F1 to
// F12, the only keys the bench presses.
func (*conn) keycode(sym Keysym) (uint32, error) {
	const xkF1, vkF1 = 0xffbe, 0x70 // XK_F1, VK_F1; both run on to F12
	if sym >= xkF1 && sym < xkF1+12 {
		return uint32(vkF1 + sym - xkF1), nil
	}
	return 0, fmt.Errorf("xtest: keysym %#x has no virtual key in the Windows injector: press one of F1 to F12 (keysyms 0xffbe to 0xffc9)", uint32(sym))
}

// fake sends one key event. At is read just before SendInput and Acked
// just after it returns, when the event is in the system's input stream
// (SendInput inserts it before returning; the window's thread reads it
// from its queue after).
func (*conn) fake(vk uint32, down bool) (Stamp, error) {
	scan, _, _ := procMapVirtualKeyW.Call(uintptr(vk), mapvkVKToVSC)
	in := keyboardInput{typ: inputKeyboard, ki: keybdInput{vk: uint16(vk), scan: uint16(scan)}}
	if !down {
		in.ki.flags = keyeventfKeyUp
	}
	at := snapshot.Now()
	n, _, err := procSendInput.Call(1, uintptr(unsafe.Pointer(&in)), unsafe.Sizeof(in))
	acked := snapshot.Now()
	if n != 1 {
		return Stamp{}, fmt.Errorf("xtest: SendInput inserted no event (%v): the desktop may be locked, or a window of a higher integrity level is in front; run the bench from an unlocked desktop session, or with -input synthetic", err)
	}
	return Stamp{At: at, Acked: acked}, nil
}

// The search of findWindow: EnumWindows calls enumWindow for each
// top-level window. The callback is made once: Windows' callbacks from Go
// are never freed, and a process may make only so many.
var (
	enumMu    sync.Mutex
	enumPID   uint32
	enumFound windows.HWND
	enumFunc  = windows.NewCallback(func(h windows.HWND, _ uintptr) uintptr {
		var p uint32
		windows.GetWindowThreadProcessId(h, &p)
		if p == enumPID && windows.IsWindowVisible(h) {
			enumFound = h
			return 0 // stop
		}
		return 1
	})
)

// findWindow returns the visible top-level window of process pid, or 0.
func findWindow(pid int) windows.HWND {
	enumMu.Lock()
	defer enumMu.Unlock()
	enumPID, enumFound = uint32(pid), 0
	windows.EnumWindows(enumFunc, nil) // a stop returns an error
	return enumFound
}

// focus brings pid's window to the foreground, where SendInput's events
// go. Windows lets only the foreground process (or one it allows) do so.
func (*conn) focus(pid int) error {
	h := findWindow(pid)
	if h == 0 {
		return fmt.Errorf("xtest: process %d has no visible window to focus", pid)
	}
	if ok, _, _ := procSetForegroundWindow.Call(uintptr(h)); ok == 0 || windows.GetForegroundWindow() != h {
		return errors.New("xtest: Windows kept another window in the foreground (only the foreground process may hand it on): click the game's window")
	}
	return nil
}

// focused returns the process of the foreground window, 0 when there is
// none.
func (*conn) focused() (int, error) {
	h := windows.GetForegroundWindow()
	if h == 0 {
		return 0, nil
	}
	var pid uint32
	if _, err := windows.GetWindowThreadProcessId(h, &pid); err != nil {
		return 0, nil
	}
	return int(pid), nil
}

func (*conn) close() {}

// monoNow is snapshot.Now() itself here: SendInput is timed from Go.
func monoNow() int64 { return snapshot.Now() }
