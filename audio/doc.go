// Package audio is tandem's sound: decoders (WAV and MP3), a mixer that
// starts every sound on the exact sample of its tick's time, and the
// device, through github.com/ebitengine/oto/v3 (PulseAudio's protocol in
// pure Go, ALSA as the fallback, WASAPI on Windows).
//
// The timeline. A tick at time T (ns on [snapshot.Now]'s clock) that plays
// a sound publishes it with its snapshot; the sim thread hands it to the
// mixer through a lock-free queue ([Output.Feed]). The mixer keeps a clock
// that maps the samples the device has taken onto snapshot.Now, and starts
// the sound on the sample whose time is T + the run's offset
// ([Output.SetOffset]). The gaps between sounds are the gaps between their
// ticks, to the sample, whatever the frame rate or the render load.
//
// Threads: oto calls [Mixer.Read] on its own goroutine (the audio thread);
// [Output.Feed] is for the sim thread alone (one producer); [Output.Stats]
// and [Output.Onsets] may be called from any one other goroutine. Nothing
// on the audio thread blocks on the sim thread, and a mixer buffer
// allocates nothing once the voices and streams are warm.
//
// Formats: WAV (8-, 16-, 24-bit PCM and 32-bit float, mono or stereo) and
// MP3 (github.com/hajimehoshi/go-mp3). No maintained pure-Go Ogg Vorbis
// decoder is served, so Vorbis is not read: convert with
// `ffmpeg -i music.ogg music.wav` (or `oggdec music.ogg`, or
// `ffmpeg -i music.ogg -b:a 192k music.mp3` for a smaller file).
package audio
