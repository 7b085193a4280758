//go:build linux && cgo

package alsa

// libasound is loaded at run time (dlopen), as oto loads it: a build
// needs no ALSA headers or development library, and a machine without
// libasound gets an error from Open, not a binary that will not start.
// The few declarations below are libasound's own (alsa/pcm.h); the PCM's
// setup follows oto v3.5.0's driver_alsa_unix.go (hw params: interleaved
// float32 stereo, rate, buffer and period near), with sw params of ours
// (avail_min a period, start at a full buffer).
// Every call that returns a figure writes it into a tandem_pcm the C side
// allocated, so that reading it from Go allocates nothing.

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

typedef struct snd_pcm_s snd_pcm_t;
typedef struct snd_pcm_hw_params_s snd_pcm_hw_params_t;
typedef struct snd_pcm_sw_params_s snd_pcm_sw_params_t;
typedef unsigned long snd_pcm_uframes_t;
typedef long snd_pcm_sframes_t;

static int (*p_open)(snd_pcm_t **, const char *, int, int);
static int (*p_close)(snd_pcm_t *);
static const char *(*p_strerror)(int);
static int (*p_hw_malloc)(snd_pcm_hw_params_t **);
static void (*p_hw_free)(snd_pcm_hw_params_t *);
static int (*p_hw_any)(snd_pcm_t *, snd_pcm_hw_params_t *);
static int (*p_hw_access)(snd_pcm_t *, snd_pcm_hw_params_t *, int);
static int (*p_hw_format)(snd_pcm_t *, snd_pcm_hw_params_t *, int);
static int (*p_hw_channels)(snd_pcm_t *, snd_pcm_hw_params_t *, unsigned);
static int (*p_hw_resample)(snd_pcm_t *, snd_pcm_hw_params_t *, unsigned);
static int (*p_hw_rate)(snd_pcm_t *, snd_pcm_hw_params_t *, unsigned *, int *);
static int (*p_hw_buffer)(snd_pcm_t *, snd_pcm_hw_params_t *, snd_pcm_uframes_t *);
static int (*p_hw_period)(snd_pcm_t *, snd_pcm_hw_params_t *, snd_pcm_uframes_t *, int *);
static int (*p_hw)(snd_pcm_t *, snd_pcm_hw_params_t *);
static int (*p_sw_malloc)(snd_pcm_sw_params_t **);
static void (*p_sw_free)(snd_pcm_sw_params_t *);
static int (*p_sw_current)(snd_pcm_t *, snd_pcm_sw_params_t *);
static int (*p_sw_start)(snd_pcm_t *, snd_pcm_sw_params_t *, snd_pcm_uframes_t);
static int (*p_sw_avail_min)(snd_pcm_t *, snd_pcm_sw_params_t *, snd_pcm_uframes_t);
static int (*p_sw)(snd_pcm_t *, snd_pcm_sw_params_t *);
static snd_pcm_sframes_t (*p_avail_update)(snd_pcm_t *);
static int (*p_wait)(snd_pcm_t *, int);
static snd_pcm_sframes_t (*p_writei)(snd_pcm_t *, const void *, snd_pcm_uframes_t);
static int (*p_recover)(snd_pcm_t *, int, int);
static int (*p_delay)(snd_pcm_t *, snd_pcm_sframes_t *);
static int (*p_drain)(snd_pcm_t *);
static int (*p_drop)(snd_pcm_t *);

static void *lib;

// tandem_alsa_load loads libasound once; NULL, or what failed.
static const char *tandem_alsa_load(void) {
	if (lib) return NULL;
	void *h = dlopen("libasound.so.2", RTLD_NOW | RTLD_GLOBAL);
	if (!h) h = dlopen("libasound.so", RTLD_NOW | RTLD_GLOBAL);
	if (!h) return dlerror();
#define SYM(p, name) if (!(*(void **)&p = dlsym(h, name))) return name;
	SYM(p_open, "snd_pcm_open") SYM(p_close, "snd_pcm_close") SYM(p_strerror, "snd_strerror")
	SYM(p_hw_malloc, "snd_pcm_hw_params_malloc") SYM(p_hw_free, "snd_pcm_hw_params_free")
	SYM(p_hw_any, "snd_pcm_hw_params_any") SYM(p_hw_access, "snd_pcm_hw_params_set_access")
	SYM(p_hw_format, "snd_pcm_hw_params_set_format") SYM(p_hw_channels, "snd_pcm_hw_params_set_channels")
	SYM(p_hw_resample, "snd_pcm_hw_params_set_rate_resample") SYM(p_hw_rate, "snd_pcm_hw_params_set_rate_near")
	SYM(p_hw_buffer, "snd_pcm_hw_params_set_buffer_size_near") SYM(p_hw_period, "snd_pcm_hw_params_set_period_size_near")
	SYM(p_hw, "snd_pcm_hw_params")
	SYM(p_sw_malloc, "snd_pcm_sw_params_malloc") SYM(p_sw_free, "snd_pcm_sw_params_free")
	SYM(p_sw_current, "snd_pcm_sw_params_current") SYM(p_sw_start, "snd_pcm_sw_params_set_start_threshold")
	SYM(p_sw_avail_min, "snd_pcm_sw_params_set_avail_min") SYM(p_sw, "snd_pcm_sw_params")
	SYM(p_avail_update, "snd_pcm_avail_update") SYM(p_wait, "snd_pcm_wait") SYM(p_writei, "snd_pcm_writei")
	SYM(p_recover, "snd_pcm_recover") SYM(p_delay, "snd_pcm_delay")
	SYM(p_drain, "snd_pcm_drain") SYM(p_drop, "snd_pcm_drop")
#undef SYM
	lib = h;
	return NULL;
}

// tandem_pcm is a PCM and the figures its calls return.
typedef struct {
	snd_pcm_t *pcm;
	unsigned rate;
	snd_pcm_uframes_t buffer, period;
	const char *step; // the call that failed
	// The last reading (tandem_pcm_read): the delay, and CLOCK_MONOTONIC
	// just before and after it, ns.
	snd_pcm_sframes_t delay;
	long long t0, t1;
} tandem_pcm;

static long long mono_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long tandem_mono_ns(void) { return mono_ns(); }

#define TRY(call, name) if ((err = (call)) < 0) { p->step = name; goto out; }

// tandem_pcm_open opens the PCM name for playback and sets it up: float32
// stereo interleaved at rate, buffer and period near those asked. A
// negative error, with p->step the call that failed; p->pcm is closed then.
static int tandem_pcm_open(tandem_pcm *p, const char *name, unsigned rate, snd_pcm_uframes_t buffer, snd_pcm_uframes_t period) {
	snd_pcm_hw_params_t *hw = NULL;
	snd_pcm_sw_params_t *sw = NULL;
	int err, dir = 0;
	p->step = "snd_pcm_open";
	if ((err = p_open(&p->pcm, name, 0, 0)) < 0) { p->pcm = NULL; return err; }
	TRY(p_hw_malloc(&hw), "snd_pcm_hw_params_malloc")
	TRY(p_hw_any(p->pcm, hw), "snd_pcm_hw_params_any")
	TRY(p_hw_access(p->pcm, hw, 3), "snd_pcm_hw_params_set_access")        // SND_PCM_ACCESS_RW_INTERLEAVED
	TRY(p_hw_format(p->pcm, hw, 14), "snd_pcm_hw_params_set_format")       // SND_PCM_FORMAT_FLOAT_LE
	TRY(p_hw_channels(p->pcm, hw, 2), "snd_pcm_hw_params_set_channels")
	TRY(p_hw_resample(p->pcm, hw, 1), "snd_pcm_hw_params_set_rate_resample")
	p->rate = rate;
	TRY(p_hw_rate(p->pcm, hw, &p->rate, &dir), "snd_pcm_hw_params_set_rate_near")
	p->buffer = buffer;
	TRY(p_hw_buffer(p->pcm, hw, &p->buffer), "snd_pcm_hw_params_set_buffer_size_near")
	p->period = period;
	dir = 0;
	TRY(p_hw_period(p->pcm, hw, &p->period, &dir), "snd_pcm_hw_params_set_period_size_near")
	TRY(p_hw(p->pcm, hw), "snd_pcm_hw_params")
	TRY(p_sw_malloc(&sw), "snd_pcm_sw_params_malloc")
	TRY(p_sw_current(p->pcm, sw), "snd_pcm_sw_params_current")
	TRY(p_sw_start(p->pcm, sw, p->buffer), "snd_pcm_sw_params_set_start_threshold")
	TRY(p_sw_avail_min(p->pcm, sw, p->period), "snd_pcm_sw_params_set_avail_min")
	TRY(p_sw(p->pcm, sw), "snd_pcm_sw_params")
	err = 0;
out:
	if (hw) p_hw_free(hw);
	if (sw) p_sw_free(sw);
	if (err < 0) { p_close(p->pcm); p->pcm = NULL; }
	return err;
}

static long tandem_pcm_avail(tandem_pcm *p) { return p_avail_update(p->pcm); }
static int tandem_pcm_wait(tandem_pcm *p, int ms) { return p_wait(p->pcm, ms); }
static long tandem_pcm_write(tandem_pcm *p, const void *buf, unsigned long frames) { return p_writei(p->pcm, buf, frames); }
static int tandem_pcm_recover(tandem_pcm *p, int err) { return p_recover(p->pcm, err, 1); }
static int tandem_pcm_drain(tandem_pcm *p) { return p_drain(p->pcm); }
static int tandem_pcm_drop(tandem_pcm *p) { return p_drop(p->pcm); }
static void tandem_pcm_close(tandem_pcm *p) { if (p->pcm) p_close(p->pcm); p->pcm = NULL; }
static const char *tandem_strerror(int err) { return p_strerror(err); }

// tandem_pcm_read reads the PCM's delay, bracketed by CLOCK_MONOTONIC.
static int tandem_pcm_read(tandem_pcm *p) {
	p->t0 = mono_ns();
	int err = p_delay(p->pcm, &p->delay);
	p->t1 = mono_ns();
	return err;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// pcm is an open PCM: tandem_pcm, allocated on the C side.
type pcm struct{ c *C.tandem_pcm }

// load loads libasound once.
func load() error {
	if msg := C.tandem_alsa_load(); msg != nil {
		return fmt.Errorf("libasound: %s", C.GoString(msg))
	}
	return nil
}

// openPCM opens name for playback at rate Hz with a buffer and a period
// near those asked (frames); it returns what the device took.
func openPCM(name string, rate, buffer, period int) (*pcm, error) {
	if err := load(); err != nil {
		return nil, err
	}
	p := &pcm{c: (*C.tandem_pcm)(C.calloc(1, C.sizeof_tandem_pcm))}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	if err := C.tandem_pcm_open(p.c, cname, C.unsigned(rate), C.snd_pcm_uframes_t(buffer), C.snd_pcm_uframes_t(period)); err < 0 {
		step := C.GoString(p.c.step)
		C.free(unsafe.Pointer(p.c))
		return nil, fmt.Errorf("%q: %s: %s", name, step, strerror(err))
	}
	return p, nil
}

func strerror(err C.int) string { return C.GoString(C.tandem_strerror(err)) }

// errno returns libasound's error n (negative) as an error.
func errno(call string, n int) error { return errors.New(call + ": " + strerror(C.int(n))) }

func (p *pcm) rate() int   { return int(p.c.rate) }
func (p *pcm) buffer() int { return int(p.c.buffer) }
func (p *pcm) period() int { return int(p.c.period) }

// avail returns the frames the PCM has room for, or a negative error.
func (p *pcm) avail() int { return int(C.tandem_pcm_avail(p.c)) }

// wait waits at most ms for room of a period; negative: an error.
func (p *pcm) wait(ms int) int { return int(C.tandem_pcm_wait(p.c, C.int(ms))) }

// write writes frames float32 stereo frames from b; it returns the frames
// written or a negative error. b holds no Go pointers.
func (p *pcm) write(b []byte, frames int) int {
	return int(C.tandem_pcm_write(p.c, unsafe.Pointer(&b[0]), C.ulong(frames)))
}

// recover prepares the PCM again after err (an underrun: -EPIPE; a
// suspend: -ESTRPIPE); negative: it could not.
func (p *pcm) recover(err int) int { return int(C.tandem_pcm_recover(p.c, C.int(err))) }

// read reads the PCM's delay (frames written and not yet heard) with
// CLOCK_MONOTONIC before and after, ns. It allocates nothing.
func (p *pcm) read() (delay int, t0, t1 int64, err int) {
	e := C.tandem_pcm_read(p.c)
	return int(p.c.delay), int64(p.c.t0), int64(p.c.t1), int(e)
}

func (p *pcm) drain() { C.tandem_pcm_drain(p.c) }
func (p *pcm) drop()  { C.tandem_pcm_drop(p.c) }

// close closes the PCM and frees it. Once.
func (p *pcm) close() {
	C.tandem_pcm_close(p.c)
	C.free(unsafe.Pointer(p.c))
	p.c = nil
}

// MonoNs returns CLOCK_MONOTONIC now, ns: the clock read's timestamps
// are on.
func MonoNs() int64 { return int64(C.tandem_mono_ns()) }
