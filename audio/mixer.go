package audio

import (
	"encoding/binary"
	"math"
	"sync/atomic"

	"github.com/tandem-engine/tandem/snapshot"
)

// MaxVoices is how many sounds play at once. When a play finds every
// voice busy, the voice that yields is the oldest one playing that is not
// the music (it has played the most of itself); the music never yields.
// Each yield is counted in Stats.VoicesDropped.
const MaxVoices = 32

// Mixer mixes the voices into the device's buffers and starts each sound
// on its sample. oto pulls from it (Read) on the audio thread; Feed is the
// sim thread's, and Stats and Onsets any one other goroutine's.
type Mixer struct {
	rate    int
	sounds  []mixSound
	streams []*stream
	q       queue
	starts  startRing
	fed     uint64 // the last tick fed; the feeding thread's

	// Owned by the audio thread.
	voices   [MaxVoices]voice
	pending  [256]Event
	npend    int
	written  int64     // frames handed to the device
	taken    int64     // frames the device had taken at the last pull
	mix      []float32 // the buffer being mixed, stereo
	seq      uint64    // plays started, for the yield rule
	clock    clock
	back     int64 // when the device came back after a fault; plays aimed before are dropped
	lastRead int64 // the last pull's now

	now      func() int64 // snapshot.Now, or a test's clock
	buffered func() int   // frames the device has been given and not yet taken; nil: no device
	target   int          // frames to keep given to the device ahead of its takes; 0: all asked

	onCall bool         // start each sound at the next buffer, as play-on-call engines do (for comparison)
	offset atomic.Int64 // ns added to a tick's time
	closed atomic.Bool  // the device is stopping: reads are silence and count nothing
	rebase atomic.Bool  // the device came back (see Output's faults): the clock anchors anew
	st     stats

	deviceSync // the clock's anchor and the device's measured timing (mixerclock.go)
}

// mixSound is a sound as the mixer plays it: decoded at its own rate and
// resampled by each voice as it plays (so a sound takes the memory of its
// own samples, not of its samples at the device's rate), or a stream.
type mixSound struct {
	pcm    []float32 // stereo at the sound's rate
	k      *kernel   // the resampler's filter; nil at the device's rate
	length int64     // frames at the device's rate in one play
	stream *stream
	name   string
}

// voice is one sound playing. Frames are counted on the device's sample
// clock: the voice's first sample is device frame at.
type voice struct {
	on     bool
	sound  int
	handle uint32
	at     int64 // device frame of its first sample
	end    int64 // device frame it stops at; math.MaxInt64: its own end
	gl, gr float32
	loop   bool
	music  bool
	seq    uint64
	gen    uint64 // the stream request it plays
	read   int64  // frames taken from its stream
}

// NewMixer returns a mixer at rate Hz (the device's) for sounds, whose
// index is an Event's Sound. It starts a streamer for each streamed sound;
// Close stops them.
func NewMixer(rate int, sounds []*Sound) *Mixer {
	m := &Mixer{rate: rate, now: snapshot.Now, mix: make([]float32, 2*rate), deviceSync: deviceSync{retime: make(chan struct{}, 1)}}
	m.clock.rate = int64(rate)
	m.sounds = make([]mixSound, len(sounds))
	for i, s := range sounds {
		m.sounds[i].name = s.Name
		if s.Streamed() {
			st := newStream(s, rate)
			m.sounds[i].stream = st
			m.streams = append(m.streams, st)
			continue
		}
		ms := &m.sounds[i]
		ms.pcm, ms.length = s.pcm, int64(len(s.pcm)/2)
		if s.Rate != rate {
			ms.k = kernelFor(s.Rate, rate)
			ms.length = ms.k.length(ms.length)
		}
	}
	return m
}

// Close stops the streamers, waiting at most a second for each; a second
// Close does nothing. The device must have stopped pulling.
func (m *Mixer) Close() {
	for _, st := range m.streams {
		st.close()
	}
}

// Rate returns the mixer's sample rate.
func (m *Mixer) Rate() int { return m.rate }

// SetOffset sets what is added to a tick's time to give the instant its
// sounds start at; set it once, before the first Feed.
func (m *Mixer) SetOffset(ns int64) { m.offset.Store(ns) }

// Offset returns the offset SetOffset set.
func (m *Mixer) Offset() int64 { return m.offset.Load() }

// Feed hands the sound events of one published tick to the mixer, each
// aimed at the tick's time plus the offset. Sim thread only (one
// producer); it never blocks: a full queue drops the event and counts it.
// A tick fed before (a pause republishes the last state) is skipped.
func (m *Mixer) Feed(s *snapshot.Snapshot) {
	if s.Tick <= m.fed {
		return
	}
	m.fed = s.Tick
	for i := range s.Sounds.N {
		e := s.Sounds.List[i]
		m.Push(Event{Op: Op(e.Op), Sound: e.Sound, Voice: e.Voice, Volume: e.Volume, Pan: e.Pan, Tick: s.Tick, Time: s.Time})
	}
}

// Push hands one event to the mixer; Feed's thread only.
func (m *Mixer) Push(e Event) {
	if !m.q.push(e) {
		m.st.eventsDropped.Add(1)
	}
}

// Read mixes the next buffer into p as 32-bit float stereo, little
// endian: what oto's player reads. Audio thread only. Once warm it
// allocates nothing.
func (m *Mixer) Read(p []byte) (int, error) {
	n := len(p) / 8
	if m.closed.Load() {
		clear(p[:8*n])
		return 8 * n, nil
	}
	now := m.now()
	bp := 0
	if m.buffered != nil {
		bp = m.buffered()
		if m.target > 0 {
			n = min(n, max(m.target-bp, 0))
		}
	}
	n = min(n, len(m.mix)/2)
	if m.rebase.Swap(false) || m.clock.valid && m.lastRead > 0 && now-m.lastRead > gapRebase {
		// The device came back after taking nothing (a stalled server,
		// a new connection): its buffer ran dry meanwhile, and the plays
		// aimed while it was gone are dropped, not played late.
		m.clock.reset(m.written - int64(bp))
		m.back = now
		m.taken = m.written - int64(bp) // the gap is no take of the device's
		m.askRetime()                   // a new connection has a latency of its own
	}
	m.lastRead = now
	steps := m.clock.steps
	if m.clock.observe(now, m.written-int64(bp), m.buffered != nil && bp == 0) {
		m.st.underruns.Add(1)
		m.askRetime()
	}
	if m.clock.steps != steps || m.clock.late {
		m.askRetime() // the server may have played silence of its own: a reading says
	}
	m.syncClock()
	if taken := m.written - int64(bp); m.buffered != nil {
		if m.clock.valid { // past the device's first fill
			m.st.takeMax.Store(max(m.st.takeMax.Load(), taken-m.taken))
		}
		m.taken = taken
	} else if m.clock.valid && n > 0 {
		// Read at the device's request: the request is the take.
		m.st.takeMax.Store(max(m.st.takeMax.Load(), int64(n)))
		if l := m.st.takeLeast.Load(); l == 0 || int64(n) < l {
			m.st.takeLeast.Store(int64(n))
		}
	}
	m.take()
	m.startDue(int64(n))
	buf := m.mix[:2*n]
	clear(buf)
	for i := range m.voices {
		if m.voices[i].on {
			m.play(&m.voices[i], buf)
		}
	}
	m.requestRestarts()
	for i, v := range buf {
		binary.LittleEndian.PutUint32(p[4*i:], math.Float32bits(max(-1, min(1, v))))
	}
	m.written += int64(n)
	m.st.written.Store(m.written)
	m.st.clockSteps.Store(m.clock.steps)
	return 8 * n, nil
}

// take moves the queued events to the pending list. A play of a streamed
// sound changes nothing yet: its stream is restarted at the play's sample
// (startDue), so the voice playing it goes on until then.
func (m *Mixer) take() {
	for m.npend < len(m.pending) {
		e, ok := m.q.pop()
		if !ok {
			return
		}
		if (e.Op == OpPlay || e.Op == OpMusic) && int(e.Sound) >= len(m.sounds) {
			m.st.eventsDropped.Add(1)
			continue
		}
		m.pending[m.npend] = e
		m.npend++
	}
}

// startDue applies the pending events whose sample falls before the end
// of the next n frames: a sound whose sample has passed (its event came
// late) starts at once, and its lateness shows in Stats.
func (m *Mixer) startDue(n int64) {
	k := 0
	for _, e := range m.pending[:m.npend] {
		aimed := e.Time + m.offset.Load()
		at := m.clock.frameAt(aimed)
		if m.onCall && m.clock.valid {
			// At the next buffer, once the clock has anchored: before
			// that a start could not be timed (a sample-exact one waits
			// too), and its record would be no instant at all.
			at = m.written
		}
		if at >= m.written+n {
			m.pending[k] = e
			k++
			continue
		}
		at = max(at, m.written)
		if e.Op == OpPlay && aimed < m.back {
			// Aimed while the device took no sound, which has come back:
			// a sound that late is noise, not the game's. The music still
			// starts.
			m.st.eventsDropped.Add(1)
			continue
		}
		switch e.Op {
		case OpPlay, OpMusic:
			if e.Op == OpMusic {
				m.stopMusic(at)
			}
			var gen uint64
			if st := m.sounds[e.Sound].stream; st != nil {
				if st.failed.Load() { // its file failed: said once, and never played again
					m.st.eventsDropped.Add(1)
					continue
				}
				gen = m.restart(st, int(e.Sound), at, e.Op == OpMusic)
			}
			v := m.free()
			if v == nil {
				m.st.voicesDropped.Add(1)
				continue
			}
			gl, gr := gains(e.Volume, e.Pan)
			m.seq++
			*v = voice{on: true, sound: int(e.Sound), handle: e.Voice, at: at, end: math.MaxInt64, gl: gl, gr: gr,
				loop: e.Op == OpMusic, music: e.Op == OpMusic, seq: m.seq, gen: gen}
			start := m.clock.timeOf(at)
			m.st.record(start-aimed, m.clock.framesNs(1)+1)
			m.starts.push(Onset{Tick: e.Tick, Aimed: aimed, Start: start})
		case OpStop:
			for i := range m.voices {
				if v := &m.voices[i]; v.on && v.handle == e.Voice && !v.music {
					v.end = min(v.end, at)
				}
			}
		case OpMusicOff:
			m.stopMusic(at)
		}
	}
	m.npend = k
}

// restart ends the voice playing streamed sound snd at frame at, where a
// new play of it starts, and returns the stream request the new voice
// plays. The streamer is told after this buffer is mixed (requestRestarts):
// until then the old voice reads the ring up to at, and from then on
// the new voice plays the stream's head from memory while it rewinds.
func (m *Mixer) restart(st *stream, snd int, at int64, loop bool) uint64 {
	for i := range m.voices {
		if v := &m.voices[i]; v.on && v.sound == snd {
			v.end = min(v.end, at)
		}
	}
	st.want++
	st.wantLoop = loop
	return st.want
}

// requestRestarts tells each stream restarted in the buffer just mixed to
// rewind: the ring is the streamer's from here until it acknowledges.
func (m *Mixer) requestRestarts() {
	for _, st := range m.streams {
		if st.want != st.req.Load() {
			st.loop.Store(st.wantLoop)
			st.req.Store(st.want)
		}
	}
}

func (m *Mixer) stopMusic(at int64) {
	for i := range m.voices {
		if v := &m.voices[i]; v.on && v.music {
			v.end = min(v.end, at)
		}
	}
}

// free returns a voice to start a sound on: a free one, or the oldest
// playing that is not the music, which yields (counted).
func (m *Mixer) free() *voice {
	var old *voice
	for i := range m.voices {
		v := &m.voices[i]
		if !v.on {
			return v
		}
		if !v.music && (old == nil || v.seq < old.seq) {
			old = v
		}
	}
	if old != nil {
		m.st.voicesDropped.Add(1)
	}
	return old
}

// gains returns the left and right gains for volume and pan: the balance
// law, which keeps a centred sound at full volume and turns the far side
// down as it pans.
func gains(volume, pan float32) (float32, float32) {
	volume = max(0, volume)
	pan = max(-1, min(1, pan))
	return volume * min(1, 1-pan), volume * min(1, 1+pan)
}

// play adds v's frames for [written, written+len(buf)/2) into buf.
func (m *Mixer) play(v *voice, buf []float32) {
	n := int64(len(buf) / 2)
	from := max(v.at, m.written)
	to := min(m.written+n, v.end)
	if st := m.sounds[v.sound].stream; st != nil {
		m.playStream(v, st, buf, from, to)
		return
	}
	ms := &m.sounds[v.sound]
	pcm, length := ms.pcm, ms.length
	if ms.k != nil {
		end := to
		if !v.loop {
			end = min(to, v.at+length)
		}
		if end > from {
			ms.k.mix(buf[2*(from-m.written):2*(end-m.written)], pcm, from-v.at, v.loop, v.gl, v.gr)
		}
		if to >= v.end || !v.loop && to-v.at >= length {
			v.on = false
		}
		return
	}
	for f := from; f < to; f++ {
		pos := f - v.at
		if pos >= length {
			if !v.loop {
				v.on = false
				return
			}
			pos %= length
		}
		k := 2 * (f - m.written)
		buf[k] += pcm[2*pos] * v.gl
		buf[k+1] += pcm[2*pos+1] * v.gr
	}
	if to >= v.end || !v.loop && to-v.at >= length {
		v.on = false
	}
}

func (m *Mixer) playStream(v *voice, st *stream, buf []float32, from, to int64) {
	if st.failed.Load() { // its file failed: the voice stops (Output says so)
		v.on = false
		return
	}
	head := int64(len(st.head) / 2)
	f := from
	for ; f < to && f-v.at < head; f++ { // the head, from memory
		k, pos := 2*(f-m.written), 2*(f-v.at)
		buf[k] += st.head[pos] * v.gl
		buf[k+1] += st.head[pos+1] * v.gr
	}
	if f < to {
		if st.ack.Load() != v.gen {
			// The streamer has not rewound yet: silence, and the stream
			// keeps its place (the frames missed are skipped when it has).
			m.st.streamStarved.Add(1)
		} else {
			r, w := st.r.Load(), st.w.Load()
			mask := uint64(len(st.ring) - 1)
			for ; v.read < f-v.at-head && r < w; v.read++ {
				r += 2
			}
			for ; f < to; f++ {
				if r >= w {
					if st.ended.Load() {
						v.on = false
					} else {
						m.st.streamStarved.Add(1)
					}
					break
				}
				k := 2 * (f - m.written)
				buf[k] += st.ring[r&mask] * v.gl
				buf[k+1] += st.ring[(r+1)&mask] * v.gr
				r += 2
				v.read++
			}
			st.r.Store(r)
		}
	}
	if to >= v.end {
		v.on = false
	}
}
