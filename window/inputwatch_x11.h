// The main thread's wait for input on X11: see inputwatch_x11.go.
typedef struct inputWatch inputWatch;
inputWatch *inputWatchOpen(const char *display, unsigned long win);
int inputWatchWait(inputWatch *w, long long timeout_ns);
void inputWatchWake(inputWatch *w);
void inputWatchClose(inputWatch *w);
