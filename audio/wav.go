package audio

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// sampleKind is how a WAV's samples are coded.
type sampleKind uint8

const (
	kindPCM   sampleKind = iota // signed integers (unsigned at 8 bits), left-justified in their bytes
	kindFloat                   // IEEE float, 32 or 64 bits
	kindALaw                    // G.711 A-law, 8 bits
	kindMuLaw                   // G.711 µ-law, 8 bits
)

// maxChannels is how many channels a WAV may have: one per speaker
// position WAVE_FORMAT_EXTENSIBLE names.
const maxChannels = 18

// wavFormat is a WAV file's sample layout, where its samples lie, and how
// its channels fold down to the mixer's stereo.
type wavFormat struct {
	channels int
	bits     int // the bits each sample takes in the file (its container)
	kind     sampleKind
	align    int // bytes per frame

	// gain[c] is channel c's share of left and right (see downmix).
	gain [maxChannels][2]float32

	dataAt, bytes int64 // the data chunk's offset and length
}

func (f wavFormat) frameBytes() int { return f.align }

// The format tags tandem reads, bare or as WAVE_FORMAT_EXTENSIBLE's
// sub-format.
const (
	tagPCM        = 1
	tagFloat      = 3
	tagALaw       = 6
	tagMuLaw      = 7
	tagExtensible = 0xFFFE
)

// ksdataGUIDTail is the last 12 bytes of every KSDATAFORMAT_SUBTYPE GUID
// built from a format tag (its first 4 bytes are the tag).
var ksdataGUIDTail = [12]byte{0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71}

// parseWAVFormat reads a fmt chunk's body: the layout and the rate.
func parseWAVFormat(b []byte) (wavFormat, int, error) {
	var f wavFormat
	tag := int(binary.LittleEndian.Uint16(b[0:2]))
	f.channels = int(binary.LittleEndian.Uint16(b[2:4]))
	rate := int(binary.LittleEndian.Uint32(b[4:8]))
	f.align = int(binary.LittleEndian.Uint16(b[12:14]))
	f.bits = int(binary.LittleEndian.Uint16(b[14:16]))
	mask := uint32(0)
	ext := tag == tagExtensible
	if ext {
		if len(b) < 40 {
			return f, 0, fmt.Errorf("WAV: WAVE_FORMAT_EXTENSIBLE in a fmt chunk of %d bytes; want 40", len(b))
		}
		mask = binary.LittleEndian.Uint32(b[20:24])
		tag = int(binary.LittleEndian.Uint32(b[24:28]))
		if [12]byte(b[28:40]) != ksdataGUIDTail || tag > 0xFFFF {
			return f, 0, fmt.Errorf("WAV: WAVE_FORMAT_EXTENSIBLE with sub-format GUID % x: tandem reads PCM, float, A-law and µ-law: convert with `ffmpeg -i in.wav -c:a pcm_s16le out.wav`", b[24:40])
		}
	}
	switch {
	case tag == tagPCM && f.bits >= 1 && f.bits <= 32:
		f.kind = kindPCM
		f.bits = (f.bits + 7) / 8 * 8 // 12- or 20-bit samples are left-justified in 2 or 3 bytes
	case tag == tagFloat && (f.bits == 32 || f.bits == 64):
		f.kind = kindFloat
	case tag == tagALaw && f.bits == 8:
		f.kind = kindALaw
	case tag == tagMuLaw && f.bits == 8:
		f.kind = kindMuLaw
	default:
		return f, 0, fmt.Errorf("WAV: format %d with %d-bit samples; tandem reads 8- to 32-bit PCM (1), 32- and 64-bit float (3), 8-bit A-law (6) and µ-law (7), bare or in WAVE_FORMAT_EXTENSIBLE: convert with `ffmpeg -i in.wav -c:a pcm_s16le out.wav`", tag, f.bits)
	}
	if f.channels < 1 || f.channels > maxChannels {
		return f, 0, fmt.Errorf("WAV: %d channels; want 1 to %d", f.channels, maxChannels)
	}
	if f.align != f.channels*f.bits/8 {
		return f, 0, fmt.Errorf("WAV: %d bytes a frame for %d channels of %d bits; want %d", f.align, f.channels, f.bits, f.channels*f.bits/8)
	}
	if rate < 1000 || rate > 192000 {
		return f, 0, fmt.Errorf("WAV: %d Hz; want 1000 to 192000", rate)
	}
	if !ext || mask == 0 || bits.OnesCount32(mask) < f.channels {
		// No mask, or one naming too few speakers: the channels are the
		// first positions in WAVE_FORMAT_EXTENSIBLE's order, as
		// Microsoft's default layouts are.
		mask = 1<<f.channels - 1
		if f.channels == 1 {
			mask = 1 << 2 // mono: the front centre
		}
	}
	f.gain = downmix(f.channels, mask)
	return f, rate, nil
}

// Speaker positions by their bit in a WAVE_FORMAT_EXTENSIBLE channel mask,
// in the order channels are stored.
const (
	spFrontLeft = iota
	spFrontRight
	spFrontCenter
	spLFE
	spBackLeft
	spBackRight
	spFrontLeftOfCenter
	spFrontRightOfCenter
	spBackCenter
	spSideLeft
	spSideRight
	spTopCenter
	spTopFrontLeft
	spTopFrontCenter
	spTopFrontRight
	spTopBackLeft
	spTopBackCenter
	spTopBackRight
)

// downmix returns each channel's gains to left and right, the rule tandem
// folds any layout to stereo by: a channel at a left position (front,
// side, back, top, left of centre) goes to the left, its mirror to the
// right, a centre one (front, back, top) to both at 1/√2 (−3 dB), the LFE
// nowhere; then each side is divided by the sum of its gains when that
// passes 1, so that full scale on every channel stays within full scale.
// Mono plays at full level on both sides and stereo is left as it is.
// The channels are matched to mask's set bits in order; channels past
// them (a mask naming too few) are dropped.
func downmix(channels int, mask uint32) (g [maxChannels][2]float32) {
	if channels == 1 {
		g[0] = [2]float32{1, 1}
		return g
	}
	const c = math.Sqrt2 / 2
	share := [maxChannels][2]float64{
		spFrontLeft: {1, 0}, spFrontRight: {0, 1}, spFrontCenter: {c, c}, spLFE: {0, 0},
		spBackLeft: {1, 0}, spBackRight: {0, 1}, spFrontLeftOfCenter: {1, 0}, spFrontRightOfCenter: {0, 1},
		spBackCenter: {c, c}, spSideLeft: {1, 0}, spSideRight: {0, 1}, spTopCenter: {c, c},
		spTopFrontLeft: {1, 0}, spTopFrontCenter: {c, c}, spTopFrontRight: {0, 1},
		spTopBackLeft: {1, 0}, spTopBackCenter: {c, c}, spTopBackRight: {0, 1},
	}
	var sum [2]float64
	var gains [maxChannels][2]float64
	ch := 0
	for pos := range maxChannels {
		if ch == channels {
			break
		}
		if mask&(1<<pos) == 0 {
			continue
		}
		gains[ch] = share[pos]
		sum[0] += share[pos][0]
		sum[1] += share[pos][1]
		ch++
	}
	for i := range channels {
		for s := range 2 {
			v := gains[i][s]
			if sum[s] > 1 {
				v /= sum[s]
			}
			g[i][s] = float32(v)
		}
	}
	return g
}

// convert turns raw samples (whole frames) into stereo float32 frames in
// dst, which holds 2 per frame. It allocates nothing.
func (f wavFormat) convert(dst []float32, raw []byte) {
	fb, sb := f.frameBytes(), f.bits/8
	k := 0
	for i := 0; i+fb <= len(raw); i += fb {
		var l, r float32
		switch f.channels {
		case 1:
			l = f.sample(raw[i:])
			r = l
		case 2:
			l, r = f.sample(raw[i:]), f.sample(raw[i+sb:])
		default:
			for c := range f.channels {
				v := f.sample(raw[i+c*sb:])
				l += v * f.gain[c][0]
				r += v * f.gain[c][1]
			}
		}
		dst[k], dst[k+1] = l, r
		k += 2
	}
}

// sample returns the sample at b's start, in [-1, 1) (a float file's
// samples as they are, within reason).
func (f wavFormat) sample(b []byte) float32 {
	switch f.kind {
	case kindFloat:
		var v float64
		if f.bits == 64 {
			v = math.Float64frombits(binary.LittleEndian.Uint64(b))
		} else {
			v = float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		}
		if v != v || v > 1e3 || v < -1e3 { // NaN or absurd: silence, not noise that poisons the mix
			return 0
		}
		return float32(v)
	case kindALaw:
		return g711[0][b[0]]
	case kindMuLaw:
		return g711[1][b[0]]
	}
	switch f.bits {
	case 8:
		return float32(int(b[0])-128) / 128
	case 16:
		return float32(int16(binary.LittleEndian.Uint16(b))) / 32768
	case 24:
		v := int32(uint32(b[0])<<8|uint32(b[1])<<16|uint32(b[2])<<24) >> 8
		return float32(v) / 8388608
	default: // 32
		return float32(float64(int32(binary.LittleEndian.Uint32(b))) / 2147483648)
	}
}

// g711 holds the A-law (0) and µ-law (1) codes' values, in [-1, 1): the
// 16-bit linear values of ITU-T G.711 (as sox and Sun's g711.c decode
// them) over 32768.
var g711 = func() (t [2][256]float32) {
	for i := range 256 {
		t[0][i] = float32(alawLinear(byte(i))) / 32768
		t[1][i] = float32(mulawLinear(byte(i))) / 32768
	}
	return t
}()

// alawLinear decodes an A-law code to 16-bit linear.
func alawLinear(a byte) int {
	a ^= 0x55
	t := int(a&0x0F) << 4
	switch seg := int(a&0x70) >> 4; seg {
	case 0:
		t += 8
	case 1:
		t += 0x108
	default:
		t = (t + 0x108) << (seg - 1)
	}
	if a&0x80 != 0 {
		return t
	}
	return -t
}

// mulawLinear decodes a µ-law code to 16-bit linear.
func mulawLinear(u byte) int {
	u = ^u
	t := (int(u&0x0F)<<3 + 0x84) << (int(u&0x70) >> 4)
	if u&0x80 != 0 {
		return 0x84 - t
	}
	return t - 0x84
}
