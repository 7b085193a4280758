//go:build cgo && !windows && !linux

package audio

import "errors"

// osName reports whether a stream of the platform's own sound API opens:
// none here (PulseAudio has directPulse, the rest oto).
func osName(Options) (string, bool) { return "", false }

// openOS is never called where osName reports none.
func openOS(*Mixer, Options) (osStream, error) {
	return nil, errors.New("no stream of the platform's own sound API here")
}
