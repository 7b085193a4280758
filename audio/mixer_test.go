package audio

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/snapshot"
)

const testRate = 48000

// click is a 1 ms burst: its onset is easy to find.
func click() *Sound {
	pcm := make([]float32, 2*48)
	for i := range pcm {
		pcm[i] = 0.9
	}
	return &Sound{Name: "click", Rate: testRate, Frames: 48, pcm: pcm}
}

// fakeDevice plays a mixer the way PulseAudio and oto do: every pull the
// device takes a period of frames from oto's player buffer (silence where
// it is short: an underrun), and then oto's goroutine refills that buffer
// from the mixer, after a wake-up delay. Device frame j is heard at
// heard(j), the mixer's model: the frame after the last one taken at a
// pull is heard one latency after the pull.
type fakeDevice struct {
	m       *Mixer
	now     int64
	t0      int64 // the first pull
	period  int   // frames per pull
	lat     int64
	pbuf    []float32
	out     []float32 // every frame the device took, in order
	scratch []byte
	rng     *rand.Rand
	// From pull levelAt on, the device takes levelNs later (it keeps its
	// buffer emptier); every frame is still heard at heard(j).
	levelAt int
	levelNs int64
	// From pull backAt on, backNs more (a level that goes part way back).
	backAt int
	backNs int64
}

func newFakeDevice(m *Mixer, seed uint64) *fakeDevice {
	d := &fakeDevice{m: m, now: 1e9, t0: 1e9, period: 1440, lat: int64(100 * time.Millisecond),
		rng: rand.New(rand.NewPCG(seed, 1))}
	m.now = func() int64 { return d.now }
	m.buffered = func() int { return len(d.pbuf) / 2 }
	m.target = testRate * 50 / 1000
	m.clock.latency = d.lat
	d.scratch = make([]byte, 8*m.target)
	return d
}

func (d *fakeDevice) heard(j int) int64 {
	return d.t0 + d.lat + d.m.clock.framesNs(int64(j-d.period))
}

// pull runs pull k: the take at its time, then (unless stalled) the
// refill after a delay of 0 to 2 ms, now and then 8 ms.
func (d *fakeDevice) pull(k int, stalled bool) {
	tp := d.t0 + d.m.clock.framesNs(int64(k*d.period))
	if d.levelAt > 0 && k >= d.levelAt {
		tp += d.levelNs
	}
	if d.backAt > 0 && k >= d.backAt {
		tp += d.backNs
	}
	d.now = tp
	n := min(d.period, len(d.pbuf)/2)
	d.out = append(d.out, d.pbuf[:2*n]...)
	d.out = append(d.out, make([]float32, 2*(d.period-n))...)
	d.pbuf = append(d.pbuf[:0], d.pbuf[2*n:]...)
	if stalled {
		return
	}
	delay := d.rng.Int64N(2e6)
	if d.rng.IntN(20) == 0 {
		delay = 8e6
	}
	d.now = tp + delay
	for len(d.pbuf)/2 < d.m.target {
		n, _ := d.m.Read(d.scratch)
		if n == 0 {
			break
		}
		for i := 0; i < n; i += 4 {
			d.pbuf = append(d.pbuf, math.Float32frombits(uint32(d.scratch[i])|uint32(d.scratch[i+1])<<8|uint32(d.scratch[i+2])<<16|uint32(d.scratch[i+3])<<24))
		}
	}
}

// onsets returns the device frames where a click starts.
func onsets(out []float32) []int {
	var on []int
	quiet := 100
	for j := 0; j < len(out)/2; j++ {
		if out[2*j] > 0.3 {
			if quiet >= 100 {
				on = append(on, j)
			}
			quiet = 0
		} else {
			quiet++
		}
	}
	return on
}

// clickRun is what a playClicks run does to the device and the mixer.
type clickRun struct {
	stallAt int   // the pull from which oto's refills stall for 120 ms; 0: none
	levelAt int   // the pull from which the device takes levelNs later; 0: none
	levelNs int64 // see fakeDevice
	backAt  int   // the pull from which the device takes backNs later still; 0: none
	backNs  int64
	onCall  bool // the mixer starts each click at the next pull (Options.OnCall)
}

// playClicks schedules 40 clicks at random instants 60 to 400 ms apart
// through a fake device, as r says, and returns the aimed instants and
// the instants the clicks were heard.
func playClicks(t *testing.T, seed uint64, r clickRun) (aimed, heard []int64, m *Mixer) {
	m = NewMixer(testRate, []*Sound{click()})
	m.onCall = r.onCall
	d := newFakeDevice(m, seed)
	d.levelAt, d.levelNs, d.backAt, d.backNs = r.levelAt, r.levelNs, r.backAt, r.backNs
	const offset = int64(200 * time.Millisecond)
	m.SetOffset(offset)
	rng := rand.New(rand.NewPCG(seed, 2))
	at := d.t0 + int64(500*time.Millisecond) // tick times
	var ticks []int64
	for range 40 {
		at += int64(60*time.Millisecond) + rng.Int64N(int64(340*time.Millisecond))
		ticks = append(ticks, at)
	}
	next := 0
	for k := 0; next < len(ticks) || d.now < ticks[len(ticks)-1]+offset+int64(300*time.Millisecond); k++ {
		tp := d.t0 + m.clock.framesNs(int64(k*d.period))
		for next < len(ticks) && ticks[next] <= tp { // the sim publishes the tick on time
			m.Push(Event{Op: OpPlay, Sound: 0, Voice: uint32(next + 1), Volume: 1, Tick: uint64(next + 1), Time: ticks[next]})
			next++
		}
		if d.levelAt > 0 && k >= d.levelAt {
			tp += d.levelNs
		}
		d.pull(k, r.stallAt > 0 && k >= r.stallAt && k < r.stallAt+4)
	}
	for _, j := range onsets(d.out) {
		heard = append(heard, d.heard(j))
	}
	for _, tk := range ticks {
		aimed = append(aimed, tk+offset)
	}
	return aimed, heard, m
}

// TestScheduleExact: every click is heard on the sample of its tick's
// time plus the offset, and so every gap equals the intended gap, though
// the pulls come in 30 ms periods with jittered wake-ups.
func TestScheduleExact(t *testing.T) {
	for seed := range uint64(5) {
		aimed, heard, m := playClicks(t, seed, clickRun{})
		if len(heard) != len(aimed) {
			t.Fatalf("seed %d: %d clicks heard, %d played", seed, len(heard), len(aimed))
		}
		var gapErr []float64
		for i := range aimed {
			if e := heard[i] - aimed[i]; e < -1e6 || e > 1e6 {
				t.Errorf("seed %d: click %d heard %.3f ms from its aimed instant", seed, i, float64(e)/1e6)
			}
			if i > 0 {
				gapErr = append(gapErr, math.Abs(float64((heard[i]-heard[i-1])-(aimed[i]-aimed[i-1]))))
			}
		}
		sort.Float64s(gapErr)
		if p99 := gapErr[len(gapErr)*99/100]; p99 > 1e9/testRate+1 {
			t.Errorf("seed %d: gap error p99 %.0f ns; want within one sample (%d ns)", seed, p99, int64(1e9)/testRate)
		}
		s := m.Stats()
		if s.Started != 40 || s.Late != 0 || s.Underruns != 0 || s.StartErrP99Ms > 0.03 {
			t.Errorf("seed %d: stats %+v; want 40 started on time, no underrun", seed, s)
		}
	}
}

// TestOnCall: started on call, each click starts at the pull after its
// tick is published, so the gaps between them are off their ticks' gaps
// by up to a pull (30 ms here), which the start records and the stats
// show: a start is when the click is heard, and the start errors, against
// the instants a sample-exact start would have, spread over the pull.
func TestOnCall(t *testing.T) {
	const pull = 30e6 // ns: the fake device's period
	aimed, heard, m := playClicks(t, 3, clickRun{onCall: true})
	starts := m.Onsets(nil)
	if len(heard) != len(aimed) || len(starts) != len(aimed) {
		t.Fatalf("%d clicks heard, %d start records, %d played", len(heard), len(starts), len(aimed))
	}
	var gapErr []float64
	for i := range aimed {
		if d := starts[i].Start - heard[i]; d < -1e6 || d > 1e6 {
			t.Errorf("click %d: its start record is %.3f ms from its hearing", i, float64(d)/1e6)
		}
		if i > 0 {
			gapErr = append(gapErr, math.Abs(float64((heard[i]-heard[i-1])-(aimed[i]-aimed[i-1]))))
		}
	}
	sort.Float64s(gapErr)
	if p99 := gapErr[len(gapErr)*99/100]; p99 < 5e6 || p99 > pull+1e6 {
		t.Errorf("gap error p99 %.3f ms; want the pull's granularity: 5 ms to a pull (30 ms)", p99/1e6)
	}
	if s := m.Stats(); s.StartErrP99Ms-s.StartErrP1Ms < 5 || s.StartErrP99Ms-s.StartErrP1Ms > pull/1e6+1 {
		t.Errorf("start error p1 %.3f ms, p99 %.3f ms; want them a pull's granularity apart", s.StartErrP1Ms, s.StartErrP99Ms)
	}

	// A play before the clock has anchored waits for it, as a
	// sample-exact one does: its start could not be timed.
	m = NewMixer(testRate, []*Sound{click()})
	m.onCall = true
	d := newFakeDevice(m, 1)
	m.Push(Event{Op: OpPlay, Volume: 1, Tick: 1, Time: d.now})
	d.pull(0, false) // the device has taken nothing yet
	if n := m.Stats().Started; n != 0 {
		t.Fatalf("%d started before the clock anchored; want 0", n)
	}
	for k := 1; k < 8; k++ {
		d.pull(k, false)
	}
	on, starts := onsets(d.out), m.Onsets(nil)
	if len(on) != 1 || len(starts) != 1 {
		t.Fatalf("%d onsets, %d start records; want 1", len(on), len(starts))
	}
	// The clock's first reading is off by that pull's wake-up (0 to 8 ms
	// here) until the least of the next ones settles it; unanchored, it
	// would be off by the whole second before the fake device's start.
	if e := starts[0].Start - d.heard(on[0]); e < -10e6 || e > 10e6 {
		t.Errorf("the start record is %.3f ms from the click's hearing; want within the first pull's wake-up", float64(e)/1e6)
	}
}

// TestUnderrun: oto's goroutine stalls for 120 ms, the device runs dry
// and inserts silence. The mixer counts it, and the clicks after it are
// still heard on their instants.
func TestUnderrun(t *testing.T) {
	aimed, heard, m := playClicks(t, 7, clickRun{stallAt: 60})
	s := m.Stats()
	if s.Underruns < 1 {
		t.Fatalf("underruns %d; want the stall counted", s.Underruns)
	}
	stallEnd := int64(1e9) + m.clock.framesNs(64*1440) + int64(100*time.Millisecond) + int64(250*time.Millisecond)
	found := map[int64]bool{}
	for _, h := range heard {
		for i, a := range aimed {
			if d := h - a; d > -1e6 && d < 1e6 {
				found[aimed[i]] = true
			}
		}
	}
	for _, a := range aimed {
		if a > stallEnd && !found[a] {
			t.Errorf("the click aimed at %.3f s (after the underrun) was not heard within 1 ms of it", float64(a)/1e9)
		}
	}
	// The same stall 10 pulls after the device began keeping its buffer
	// 5 ms fuller: the reads after the underrun that come sooner than the
	// pull it was found at correct the origin (late by that pull's
	// wake-up), not the level step's size. Three seeds whose clicks were
	// heard 1.1 to 2.0 ms off when they went to the step.
	for _, seed := range []uint64{3, 4, 5} {
		aimed, heard, m := playClicks(t, seed, clickRun{levelAt: 50, levelNs: -5e6, stallAt: 60})
		if len(heard) != len(aimed) {
			t.Fatalf("seed %d, a stall after a step: %d clicks heard of %d", seed, len(heard), len(aimed))
		}
		for i := range aimed {
			if e := heard[i] - aimed[i]; aimed[i] > stallEnd && (e < -1e6 || e > 1e6) {
				t.Errorf("seed %d, a stall after a step: click %d heard %.3f ms from its instant", seed, i, float64(e)/1e6)
			}
		}
		if s := m.Stats(); s.Underruns < 1 {
			t.Errorf("seed %d, a stall after a step: %d underruns; want the stall counted", seed, s.Underruns)
		}
	}
}

// TestLevelChange: the device starts keeping its buffer 10 ms emptier
// (PulseAudio does when a recorder joins the sink), so its takes come
// 10 ms later, then 10 ms fuller: no frame is heard at another time, and
// every click stays on its instant. Each step is counted, and is no
// underrun.
func TestLevelChange(t *testing.T) {
	for _, ns := range []int64{10e6, -10e6} {
		aimed, heard, m := playClicks(t, 11, clickRun{levelAt: 150, levelNs: ns})
		if len(heard) != len(aimed) {
			t.Fatalf("level %+d ms: %d clicks heard of %d", ns/1e6, len(heard), len(aimed))
		}
		for i := range aimed {
			if e := heard[i] - aimed[i]; e < -1e6 || e > 1e6 {
				t.Errorf("level %+d ms: click %d heard %.3f ms from its instant", ns/1e6, i, float64(e)/1e6)
			}
		}
		if s := m.Stats(); s.Underruns != 0 || s.ClockSteps != 1 {
			t.Errorf("level %+d ms: stats %+v; want one clock step, no underrun", ns/1e6, s)
		}
	}
	// A server that keeps the buffer 5 ms fuller, then 1.5 ms of that
	// emptier again (PulseAudio went 2 ms and 1.7 ms back, at a 25 ms
	// buffer): the way back is less than a step, but more than a clock
	// drifts in a window, and it too moves no frame's hearing.
	aimed, heard, m := playClicks(t, 11, clickRun{levelAt: 60, levelNs: -5_000_000, backAt: 120, backNs: 1_500_000})
	if len(heard) != len(aimed) {
		t.Fatalf("a level and part of the way back: %d clicks heard of %d", len(heard), len(aimed))
	}
	for i := range aimed {
		if e := heard[i] - aimed[i]; e < -1e6 || e > 1e6 {
			t.Errorf("a level and part of the way back: click %d heard %.3f ms from its instant", i, float64(e)/1e6)
		}
	}
	if s := m.Stats(); s.Underruns != 0 || s.ClockSteps != 2 {
		t.Errorf("a level and part of the way back: stats %+v; want two clock steps, no underrun", s)
	}
}

// TestMixerAllocs: once warm, a buffer allocates nothing, with voices
// starting and stopping, the music looping and a long WAV streaming.
func TestMixerAllocs(t *testing.T) {
	long, err := Decode("long.wav", wavBytes(44100, 2, 16, 1, make([][2]float64, 44100*(StreamAbove+1))))
	if err != nil {
		t.Fatal(err)
	}
	m := NewMixer(testRate, []*Sound{click(), long})
	defer m.Close()
	d := newFakeDevice(m, 1)
	m.SetOffset(int64(200 * time.Millisecond))
	d.pbuf = make([]float32, 0, 2*testRate)
	d.out = make([]float32, 0, 2*testRate*60)
	k := 0
	run := func(pulls int) {
		for range pulls {
			tp := d.t0 + m.clock.framesNs(int64(k*d.period))
			if k%3 == 0 {
				m.Push(Event{Op: OpPlay, Sound: 0, Voice: uint32(k), Volume: 0.5, Pan: -0.5, Time: tp})
			}
			if k%100 == 0 {
				m.Push(Event{Op: OpPlay, Sound: 1, Voice: uint32(k), Volume: 0.5, Time: tp})
			}
			d.pull(k, false)
			k++
			streamsCaughtUp(t, m)
		}
	}
	run(300)
	n := mallocs.Fewest(3, func() { run(300) })
	if n != 0 {
		t.Errorf("%d allocations over 300 buffers; want 0", n)
	}
	if s := m.Stats(); s.Started < 200 {
		t.Errorf("stats %+v: the sounds did not start", s)
	}
}

// TestVoiceCap: past MaxVoices the oldest voice yields, counted.
func TestVoiceCap(t *testing.T) {
	long := &Sound{Name: "tone", Rate: testRate, Frames: testRate, pcm: make([]float32, 2*testRate)}
	m := NewMixer(testRate, []*Sound{long})
	m.now = func() int64 { return 1e9 }
	buf := make([]byte, 8*480)
	m.Read(buf)
	for i := range MaxVoices + 3 {
		m.Push(Event{Op: OpPlay, Voice: uint32(i + 1), Volume: 1})
	}
	m.Read(buf)
	if s := m.Stats(); s.VoicesDropped != 3 || s.Started != MaxVoices+3 {
		t.Errorf("stats %+v; want 3 voices dropped of %d started", s, MaxVoices+3)
	}
	for i := range m.voices {
		if h := m.voices[i].handle; h <= 3 {
			t.Errorf("voice %d still plays: the oldest should have yielded", h)
		}
	}
}

// TestFeed: a snapshot's sounds reach the mixer stamped with its tick and
// time.
func TestFeed(t *testing.T) {
	m := NewMixer(testRate, []*Sound{click()})
	var s snapshot.Snapshot
	s.Tick, s.Time = 9, 12345
	s.Sounds.Add(snapshot.SoundEvent{Op: uint8(OpPlay), Sound: 0, Voice: 4, Volume: 1})
	m.Feed(&s)
	m.Feed(&s) // a pause republishes the tick: not played twice
	e, ok := m.q.pop()
	if !ok || e.Tick != 9 || e.Time != 12345 || e.Voice != 4 || e.Op != OpPlay {
		t.Errorf("event %+v %v", e, ok)
	}
	if e, ok := m.q.pop(); ok {
		t.Errorf("the republished tick was fed again: %+v", e)
	}
}

// TestStreamLoops: a long WAV played as the music streams from its file
// and comes out sample for sample, starting on its frame, and loops with
// no seam.
func TestStreamLoops(t *testing.T) {
	frames, long := sawtoothStream(t, testRate*(StreamAbove+1)/4*4)
	m := NewMixer(testRate, []*Sound{long})
	defer m.Close()
	d := newFakeDevice(m, 3)
	m.SetOffset(int64(200 * time.Millisecond))
	var start int64
	for k := 0; k < 600; k++ {
		tp := d.t0 + m.clock.framesNs(int64(k*d.period))
		if k == 20 {
			m.Push(Event{Op: OpMusic, Sound: 0, Volume: 1, Tick: 1, Time: tp})
		}
		d.pull(k, false)
		streamsCaughtUp(t, m)
	}
	on := m.Onsets(nil)
	if len(on) != 1 {
		t.Fatalf("%d onsets; want 1", len(on))
	}
	// The music's first frame is the first sound, and it is heard at
	// its onset (within the clock's error: the least wake-up delay).
	for j := range len(d.out) / 2 {
		if d.out[2*j] != 0 {
			start = int64(j)
			break
		}
	}
	if e := d.heard(int(start)) - on[0].Aimed; e < -1e6 || e > 1e6 {
		t.Errorf("the music is heard %.3f ms from its aimed instant", float64(e)/1e6)
	}
	n := int64(len(frames))
	bad := 0
	for j := start; j < int64(len(d.out)/2); j++ {
		want := float32(frames[(j-start)%n][0])
		if got := d.out[2*j]; math.Abs(float64(got-want)) > 1e-6 {
			if bad < 5 {
				t.Errorf("frame %d of the music: %v, want %v", j-start, got, want)
			}
			bad++
		}
	}
	if played := int64(len(d.out)/2) - start; played < n+testRate {
		t.Errorf("%d frames played; want past the loop's seam at %d", played, n)
	}
	if s := m.Stats(); s.StreamStarved != 0 || bad != 0 {
		t.Errorf("%d frames wrong, stats %+v", bad, s)
	}
}

// TestStreamRestartAtSample: a second play of a streamed sound cuts the
// first on the second's own sample, not when its event arrives (one
// offset before): the first plays sample for sample up to that sample,
// and the second from its start on, whether its event came while the
// first played (300 ms apart) or before the first had started (100 ms,
// inside the 200 ms offset).
func TestStreamRestartAtSample(t *testing.T) {
	frames, long := sawtoothStream(t, testRate*(StreamAbove+1))
	for _, gapPulls := range []int{10, 3} { // 30 ms a pull: 300 and 90 ms apart
		m := NewMixer(testRate, []*Sound{long})
		d := newFakeDevice(m, 5)
		m.SetOffset(int64(200 * time.Millisecond))
		for k := 0; k < 160; k++ {
			tp := d.t0 + m.clock.framesNs(int64(k*d.period))
			if k == 20 || k == 20+gapPulls {
				m.Push(Event{Op: OpPlay, Sound: 0, Volume: 1, Tick: uint64(k), Time: tp})
			}
			d.pull(k, false)
			streamsCaughtUp(t, m)
		}
		m.Close()
		on := m.Onsets(nil)
		if len(on) != 2 {
			t.Fatalf("gap %d pulls: %d onsets; want 2", gapPulls, len(on))
		}
		start := -1
		for j := range len(d.out) / 2 {
			if d.out[2*j] != 0 {
				start = j
				break
			}
		}
		if start < 0 {
			t.Fatalf("gap %d pulls: silence; stats %+v", gapPulls, m.Stats())
		}
		gap := gapPulls * d.period // the ticks' times are whole frames apart
		second := start + gap      // the second's first frame, by the aimed gap
		want := func(j int) float32 {
			if j < second {
				return float32(frames[j-start][0])
			}
			return float32(frames[j-second][0])
		}
		bad := 0
		for j := start; j < len(d.out)/2; j++ {
			if got := d.out[2*j]; math.Abs(float64(got-want(j))) > 1e-6 {
				if bad < 5 {
					t.Errorf("gap %d pulls: device frame %d (%d after the first's start, the second's at %d): %v, want %v",
						gapPulls, j, j-start, gap, got, want(j))
				}
				bad++
			}
		}
		if played := len(d.out)/2 - second; played < testRate {
			t.Errorf("gap %d pulls: the second played %d frames; want a second at least", gapPulls, played)
		}
		if s := m.Stats(); bad != 0 || s.StreamStarved != 0 {
			t.Errorf("gap %d pulls: %d frames wrong, stats %+v", gapPulls, bad, s)
		}
	}
}

// streamsCaughtUp waits until every stream's streamer has served the
// latest request and filled its ring as far as it fills (or reached the
// end): the fake device pulls far faster than real time, and on a loaded
// machine (the race detector, tests beside it) a fixed sleep let the
// streamer fall behind and starve. A streamer that takes 10 s fails.
func streamsCaughtUp(t *testing.T, m *Mixer) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for _, st := range m.streams {
		for {
			full := int(st.w.Load()-st.r.Load()) > 3*len(st.ring)/4
			q := st.req.Load() // 0: never played, nothing to fill
			if st.ack.Load() == q && (q == 0 || full || st.ended.Load()) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("stream %s: the streamer did not catch up in 10 s", st.snd.Name)
			}
			time.Sleep(500 * time.Microsecond)
		}
	}
}

// sawtoothStream returns n stereo frames of a sawtooth, every frame's
// value saying where it is, and the streamed Sound decoded from them as a
// float WAV.
func sawtoothStream(t *testing.T, n int) ([][2]float64, *Sound) {
	t.Helper()
	frames := make([][2]float64, n)
	for i := range frames {
		v := float64(i%1000)/1000 - 0.5
		frames[i] = [2]float64{v, -v}
	}
	long, err := Decode("long.wav", wavBytes(testRate, 2, 32, 3, frames))
	if err != nil || !long.Streamed() {
		t.Fatalf("%v, streamed %v", err, long != nil && long.Streamed())
	}
	return frames, long
}
