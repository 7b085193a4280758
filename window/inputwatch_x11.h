// The main thread's wait for input on X11: see inputwatch_x11.go.
typedef struct inputWatch inputWatch;
inputWatch *inputWatchOpen(const char *display, unsigned long win);
// inputWatchFd is the connection's socket, for the Go side to wait on.
int inputWatchFd(inputWatch *w);
// inputWatchDrain reads every event queued or waiting on the connection
// and returns how many were input (keys, moves, raw buttons).
int inputWatchDrain(inputWatch *w);
void inputWatchClose(inputWatch *w);
