package audio

import "time"

// The device's buffer (Options.Buffer, tandem's -audio-buffer), which
// sets how soon a sound is heard: the device's latency follows it.
// DefaultBuffer is the least of those measured from outside (30 to 60
// ms) on a shared 2-core machine: none held 0 underruns in every run
// under the machine's load, so a larger one bought latency, not a clean
// run (docs/results/2026-11-27-sound-latency4.md); 25 ms was heard sooner
// but its gaps were not exact (docs/results/2026-11-27-sound-latency7.md).
// A machine whose runs show audio_underruns needs more.
const (
	DefaultBuffer = 30 * time.Millisecond
	MinBuffer     = 5 * time.Millisecond
	MaxBuffer     = 500 * time.Millisecond
)

// DefaultMargin is what the offset keeps for the sim thread publishing a
// tick late (Options.Margin): a sound of a tick later than that starts
// late. How late the sim was in the runs that chose it:
// docs/results/2026-11-27-sound-latency7.md.
const DefaultMargin = 10 * time.Millisecond

// alsaBuffer is the device's buffer through oto's ALSA (where the
// mixer's own PCM does not open), where oto gives no delay to measure and
// its takes are half the buffer: smaller ones underran on a loaded 2-core
// machine.
const alsaBuffer = 100 * time.Millisecond

// defaultAhead returns how far the mixer keeps ahead of the device's
// takes in oto's player (ALSA, WASAPI): more than one take. ALSA takes a
// period, half the buffer. On PulseAudio there is no player: the mixer
// plays on a stream of its own, read at the server's requests
// (directPulse). Through oto's player a lead below the player's own
// buffer size makes oto poll the mixer every millisecond instead of after
// each take, which put the clock's reads at random phases of the takes
// and moved it by about 1 ms back and forth (heard gaps off by 0.9 to
// 1.35 ms): docs/results/2026-11-26-sound-latency2.md.
func defaultAhead(buffer time.Duration, device string) time.Duration {
	if device == "alsa" {
		return buffer/2 + 25*time.Millisecond
	}
	return buffer
}
