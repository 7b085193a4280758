// Package audio is tandem's sound: decoders (WAV and MP3), a mixer that
// starts every sound on the exact sample of its tick's time, and the
// device: on PulseAudio a stream of the mixer's own, through a copy of
// github.com/jfreymuth/pulse in internal/pulse (the protocol in pure Go,
// no allocation per request); through github.com/ebitengine/oto/v3 where
// no PulseAudio server answers (ALSA, WASAPI on Windows).
//
// The timeline. A tick at time T (ns on [snapshot.Now]'s clock) that plays
// a sound publishes it with its snapshot; the sim thread hands it to the
// mixer through a lock-free queue ([Output.Feed]). The mixer keeps a clock
// that maps the samples the device has taken onto snapshot.Now, and starts
// the sound on the sample whose time is T + the run's offset
// ([Output.SetOffset]). The gaps between sounds are the gaps between their
// ticks, to the sample, whatever the frame rate or the render load.
//
// Threads: the stream's reader (or oto's) calls [Mixer.Read] on its own
// goroutine (the audio thread);
// [Output.Feed] is for the sim thread alone (one producer); [Output.Stats]
// and [Output.Onsets] may be called from any one other goroutine. Nothing
// on the audio thread blocks on the sim thread, and a mixer buffer
// allocates nothing once the voices and streams are warm.
//
// Formats: WAV (PCM of 8 to 32 bits, float of 32 and 64, A-law and µ-law,
// bare or WAVE_FORMAT_EXTENSIBLE, 1 to 18 channels folded to stereo), MP3
// (MPEG-1, 2 and 2.5, gapless as mpg123 plays it, through a fixed copy of
// github.com/hajimehoshi/go-mp3 in internal/mp3) and FLAC (through the
// decoder of github.com/mewkiz/flac, in internal/flac). A sound stays at
// its own rate; each voice resamples it as it plays, through a
// band-limited (windowed-sinc) filter. No maintained pure-Go Ogg Vorbis
// decoder is served, so Vorbis is not read: convert with
// `ffmpeg -i music.ogg music.flac` (or `oggdec music.ogg`, or
// `ffmpeg -i music.ogg -b:a 192k music.mp3` for a smaller file).
package audio
