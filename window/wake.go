package window

/*
// GLFW's own, linked in by go-gl/glfw. Called directly, not through
// glfw.PostEmptyEvent, whose error check reads the error channel that the
// main thread's calls share: from another goroutine it could take, and
// panic on, an error of theirs.
extern void glfwPostEmptyEvent(void);
*/
import "C"

import "sync"

// waker lets any goroutine end the main thread's wait for events, while
// the window exists.
type waker struct {
	mu    sync.Mutex
	live  bool
	watch *inputWatch // nil: the wait is GLFW's
}

// Wake makes a WaitEvents in progress on the main thread return at once;
// a WaitEvents that starts after it returns at once too. It does nothing
// once the window is destroyed.
//
// Any goroutine.
func (w *Window) Wake() {
	w.wake.mu.Lock()
	defer w.wake.mu.Unlock()
	switch {
	case !w.wake.live:
	case w.wake.watch != nil:
		w.wake.watch.wake()
	default:
		C.glfwPostEmptyEvent()
	}
}

// open makes Wake post, to watch when it is not nil.
func (k *waker) open(watch *inputWatch) {
	k.mu.Lock()
	k.live, k.watch = true, watch
	k.mu.Unlock()
}

// close stops Wake, and closes the watch.
func (k *waker) close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.watch != nil {
		k.watch.close()
	}
	k.live, k.watch = false, nil
}
