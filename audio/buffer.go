package audio

import "time"

// The device's buffer (Options.Buffer, tandem's -audio-buffer), which
// sets how soon a sound is heard: the device's latency follows it, and
// the mixer keeps half of it ahead of the device's takes. DefaultBuffer is
// the least with which no run underran on a loaded 2-core machine
// (docs/results/2026-11-26-sound-latency.md); a machine whose runs show
// audio_underruns needs more.
const (
	DefaultBuffer = 40 * time.Millisecond
	MinBuffer     = 5 * time.Millisecond
	MaxBuffer     = 500 * time.Millisecond
)

// defaultAhead returns how far the mixer keeps ahead of the device's
// takes in oto's player: more than one take. PulseAudio takes a part of
// its buffer at a time, ALSA a period (half the buffer).
func defaultAhead(buffer time.Duration, device string) time.Duration {
	if device == "alsa" {
		return buffer/2 + 25*time.Millisecond
	}
	return max(buffer/2, 5*time.Millisecond)
}
