package tandem

import (
	"fmt"
	"io/fs"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/snapshot"
)

// Sound is a sound a game's Setup declared: a WAV (8-, 16-, 24-bit PCM or
// 32-bit float, mono or stereo) or an MP3. The zero Sound plays nothing.
// Ogg Vorbis is not read: convert it (`ffmpeg -i in.ogg out.wav`).
type Sound uint16

// Voice names one play of a sound, for [World.Stop]. The zero Voice is
// no play.
type Voice uint32

// MaxSoundsPerTick is how many plays and stops one tick can make; past it
// a tick's sound calls do nothing, and each is counted in the summary's
// audio_plays_dropped.
const MaxSoundsPerTick = snapshot.MaxSounds

// Sound decodes data (a WAV or an MP3 file's bytes) and returns its sound;
// name is for errors and for [Setup.SoundNamed]. A bad or truncated file
// is an error naming name, which Setup's caller reports. A sound longer
// than 10 seconds is streamed from data as it plays, not decoded whole.
func (s *Setup) Sound(name string, data []byte) Sound {
	s.live("Sound")
	snd, err := audio.Decode(name, data)
	if err != nil {
		s.errs = append(s.errs, fmt.Errorf("tandem: sound %w", err))
		return 0
	}
	return s.addSound(name, snd)
}

func (s *Setup) addSound(name string, snd *audio.Sound) Sound {
	if len(s.sounds) >= 0xFFFF {
		s.errs = append(s.errs, fmt.Errorf("tandem: more than %d sounds", 0xFFFF))
		return 0
	}
	s.sounds = append(s.sounds, snd)
	s.world.nsounds = len(s.sounds) // Setup may play it: on the first tick
	if s.soundByName == nil {
		s.soundByName = map[string]Sound{}
	}
	s.soundByName[name] = Sound(len(s.sounds))
	return Sound(len(s.sounds))
}

// Sounds adds every sound file in fsys that matches pattern (path.Match
// syntax, e.g. "sounds/*.wav"), named by its file name without the
// extension, in name order. A long file (past 10 seconds) is streamed from
// fsys as it plays: its files must seek (os.DirFS and embed.FS's do).
func (s *Setup) Sounds(fsys fs.FS, pattern string) error {
	s.live("Sounds")
	return s.eachFile(fsys, pattern, "sounds", func(name, file string) error {
		snd, err := audio.Load(fsys, file)
		if err != nil {
			return fmt.Errorf("tandem: sound %w", err)
		}
		s.addSound(name, snd)
		return nil
	})
}

// SoundNamed returns the sound called name. An unknown name is an error
// that Setup's caller reports, naming it; the sound is then 0, which
// plays nothing.
func (s *Setup) SoundNamed(name string) Sound {
	snd, ok := s.soundByName[name]
	if !ok {
		s.errs = append(s.errs, fmt.Errorf("tandem: no sound called %q: %s", name, engine.KnownNames(name, s.soundByName, "sounds")))
	}
	return snd
}

// Play starts snd at this tick's instant, at volume (1 as recorded; 0
// silent) and pan (-1 left, 0 centre, 1 right), and returns its voice.
// The play is part of the tick's output, published with its snapshot: the
// mixer starts it on the exact sample of the tick's time plus the run's
// constant offset, so sounds keep the gaps between their ticks. It is not
// game state: a world's hash does not see it, and a replay plays the same
// sounds at the same ticks. It allocates nothing; past MaxSoundsPerTick
// plays and stops in one tick it does nothing and returns 0, and the run's
// summary counts it (audio_plays_dropped). Called in Setup (through
// Setup.World), it plays on the first tick, as Music does there. Only the
// game's Setup and Tick may call it: from elsewhere (an Autoplay callback,
// another goroutine) it panics, saying so.
func (w *World) Play(snd Sound, volume, pan float32) Voice {
	w.mine("Play")
	if snd == 0 || int(snd) > w.nsounds {
		return 0
	}
	w.voiceSeq++
	if !w.addSound(snapshot.SoundEvent{Op: uint8(audio.OpPlay), Sound: uint16(snd - 1), Voice: w.voiceSeq, Volume: volume, Pan: pan}) {
		return 0
	}
	return Voice(w.voiceSeq)
}

// mine panics when the world's owner is not in it: call is a sound call
// made outside the game's Setup and Tick, from another goroutine (an
// Autoplay callback, which runs on the input thread while the sim runs,
// or a goroutine of the game's). One made while a tick runs is not seen
// by this check (the race detector sees it), but such a call falls
// between ticks nearly always, so the mistake shows at once.
func (w *World) mine(call string) {
	if w.guarded && !w.owned.Load() {
		panic("tandem: World." + call + " called outside the game's Setup and Tick: the world belongs to the sim thread, which calls Tick; play sounds from Tick (an Autoplay callback runs on another thread and must not touch the world)")
	}
}

// addSound adds e to the tick's sound events and reports whether there
// was room; a call past MaxSoundsPerTick is counted.
func (w *World) addSound(e snapshot.SoundEvent) bool {
	if !w.sounds.Add(e) {
		w.soundsDropped++
		return false
	}
	return true
}

// Stop stops the voice at this tick's instant (a sound that has ended
// already is no matter).
func (w *World) Stop(v Voice) {
	w.mine("Stop")
	if v != 0 {
		w.addSound(snapshot.SoundEvent{Op: uint8(audio.OpStop), Voice: uint32(v)})
	}
}

// Music starts snd looping as the music at this tick's instant, replacing
// the music playing; the music never yields its voice to other sounds.
func (w *World) Music(snd Sound, volume float32) {
	w.mine("Music")
	if snd == 0 || int(snd) > w.nsounds {
		return
	}
	w.addSound(snapshot.SoundEvent{Op: uint8(audio.OpMusic), Sound: uint16(snd - 1), Volume: volume})
}

// StopMusic stops the music at this tick's instant.
func (w *World) StopMusic() {
	w.mine("StopMusic")
	w.addSound(snapshot.SoundEvent{Op: uint8(audio.OpMusicOff)})
}
