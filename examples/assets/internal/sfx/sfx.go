// Package sfx synthesises the demo's sounds: short effects and a music
// loop, as 16-bit mono samples at Rate, from code alone (no recordings,
// no downloads). internal/gen writes them as WAVs into examples/assets/wav.
//
// Threads: any goroutine; every function is pure.
package sfx

import (
	"bytes"
	"encoding/binary"
	"math"
)

// Rate is the sounds' sample rate, Hz.
const Rate = 22050

// Sound is one synthesised sound: its file name without ".wav", and its
// samples.
type Sound struct {
	Name    string
	Samples []int16
}

// All returns every sound, in name order.
func All() []Sound {
	return []Sound{
		{"click", click()},
		{"coin", coin()},
		{"hit", hit()},
		{"jump", jump()},
		{"land", land()},
		{"music", music()},
		{"shot", shot()},
	}
}

// WAV returns s as a 16-bit mono WAV file.
func (s Sound) WAV() []byte {
	var b bytes.Buffer
	n := 2 * len(s.Samples)
	b.WriteString("RIFF")
	put := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	put(uint32(36 + n))
	b.WriteString("WAVEfmt ")
	put(uint32(16))
	put(uint16(1)) // PCM
	put(uint16(1)) // mono
	put(uint32(Rate))
	put(uint32(2 * Rate))
	put(uint16(2))
	put(uint16(16))
	b.WriteString("data")
	put(uint32(n))
	put(s.Samples)
	return b.Bytes()
}

// noise is a fixed pseudo-random generator (xorshift), so the files are
// the same at every generation.
type noise uint32

func (n *noise) next() float64 {
	x := uint32(*n)
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	*n = noise(x)
	return float64(x)/float64(math.MaxUint32)*2 - 1
}

// render makes seconds of sound from f(t) in -1..1, scaled by gain.
func render(seconds, gain float64, f func(t float64) float64) []int16 {
	out := make([]int16, int(seconds*Rate))
	for i := range out {
		v := gain * f(float64(i)/Rate)
		out[i] = int16(math.Round(max(-1, min(1, v)) * 32767))
	}
	return out
}

// decay is an envelope falling from 1 at t=0 with time constant tau, with
// a 2 ms fade in so no sound starts with a click of its own. (The sounds
// that are cut before they have decayed fade out the same way.)
func decay(t, tau float64) float64 { return math.Exp(-t/tau) * min(1, t/0.002) }

func square(phase float64) float64 {
	if math.Mod(phase, 1) < 0.5 {
		return 1
	}
	return -1
}

func triangle(phase float64) float64 {
	p := math.Mod(phase, 1)
	return 4*math.Abs(p-0.5) - 1
}

// click is a 5 ms tick: a sharp onset that decays at once.
func click() []int16 {
	return render(0.005, 0.9, func(t float64) float64 { return math.Exp(-t/0.001) * math.Sin(2*math.Pi*2000*t) })
}

// jump is a square wave gliding up from 300 to 750 Hz over 150 ms.
func jump() []int16 {
	return render(0.15, 0.35, func(t float64) float64 {
		f0, f1, d := 300.0, 750.0, 0.15
		phase := f0*t + (f1-f0)*t*t/(2*d) // the integral of the glide
		return square(phase) * decay(t, 0.08)
	})
}

// coin is the classic pickup: B5 for 60 ms, then E6 ringing out.
func coin() []int16 {
	return render(0.3, 0.3, func(t float64) float64 {
		if t < 0.06 {
			return square(987.77*t) * min(1, t/0.002) * min(1, (0.06-t)/0.002)
		}
		return square(1318.51*t) * decay(t-0.06, 0.08) * min(1, (0.3-t)/0.005)
	})
}

// land is a soft thump: a low sine falling in pitch, with a little noise.
func land() []int16 {
	n := noise(7)
	return render(0.12, 0.7, func(t float64) float64 {
		return (math.Sin(2*math.Pi*(120*t-200*t*t)) + 0.3*n.next()) * decay(t, 0.03)
	})
}

// shot is a short burst of noise falling in brightness.
func shot() []int16 {
	n := noise(11)
	prev := 0.0
	return render(0.09, 0.5, func(t float64) float64 {
		k := 0.2 + 0.8*math.Exp(-t/0.02) // a one-pole filter that closes
		prev += k * (n.next() - prev)
		return prev * decay(t, 0.03)
	})
}

// hit is a longer, lower burst: an explosion.
func hit() []int16 {
	n := noise(23)
	prev := 0.0
	return render(0.35, 0.8, func(t float64) float64 {
		prev += 0.08 * (n.next() - prev)
		return 3 * prev * decay(t, 0.1)
	})
}

// music is a 4-second loop at 120 beats a minute: a triangle-wave
// arpeggio over a square bass, C, A minor, F, G, a bar each; it ends
// where it began, so it loops without a seam.
func music() []int16 {
	chords := [4][3]float64{{261.63, 329.63, 392.00}, {220.00, 261.63, 329.63}, {174.61, 220.00, 261.63}, {196.00, 246.94, 293.66}}
	const bar, step = 1.0, 0.125 // a bar a chord, eighth notes
	return render(4, 0.25, func(t float64) float64 {
		c := chords[int(t/bar)%4]
		k := int(t / step)
		note := c[[4]int{0, 1, 2, 1}[k%4]] * 2
		in := t - float64(k)*step
		// each note fades out over its last 3 ms: a cut note clicks
		lead := triangle(note*t) * decay(in, 0.09) * min(1, (step-in)/0.003)
		bass := 0.35 * square(c[0]/2*t) * min(1, (bar-math.Mod(t, bar))/0.01) * min(1, math.Mod(t, bar)/0.01)
		return lead + bass
	})
}
