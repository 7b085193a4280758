//go:build cgo

package audio

import "time"

// osStream is a stream of the platform's own sound API that the mixer
// plays on with no oto player between, the device's clock read from that
// API: WASAPI on Windows (wasapi_windows.go), ALSA on Linux where no
// PulseAudio server answers (alsa_linux.go). Elsewhere there is none
// (osstream_other.go): PulseAudio has directPulse, the rest oto.
type osStream interface {
	// heard0 returns when the device's frame 0 is heard, ns on
	// snapshot.Now's clock, from n readings of the device's clock.
	heard0(n int) (int64, error)
	// follow starts handing the device's clock to the mixer as it plays
	// (Mixer.heardNext), once its latency is measured.
	follow()
	// settle waits, until deadline at most, for the device's clock to
	// hold still once followed, and reports whether it did.
	settle(deadline time.Time) bool
	// latency is the device's latency from a take to its being heard, as
	// the stream's clock last said, once followed.
	latency() time.Duration
	// ahead is how long before its take a frame is mixed (Options.Ahead).
	ahead() time.Duration
	// source names where heard0's timing comes from (Stats.LatencySource).
	source() string
	// err says why the stream stopped being served (the device went),
	// nil while it is.
	err() error
	// end stops reading the mixer and closes the stream, its waits
	// bounded; with drain the device first plays what it holds. It
	// reports whether the stream's reader left the mixer in time.
	end(drain bool) bool
}
