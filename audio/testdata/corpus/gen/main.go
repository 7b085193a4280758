// Command gen writes the source WAVs that make.sh encodes into this
// folder's MP3 and FLAC files: the corpus signal (corpus_test.go's
// corpusSample, the same lines) at each rate, channel count and length.
//
//	go run ./audio/testdata/corpus/gen DIR
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
)

// corpusSample is channel c's sample at frame i of the corpus signal at
// rate Hz, in [-1, 1]: two tones a channel and, every quarter second, a
// decaying chirp (a transient, for the MP3 coder's short blocks).
func corpusSample(i, c, rate int) float64 {
	t := float64(i) / float64(rate)
	v := 0.3*math.Sin(2*math.Pi*220*float64(c+1)*t) + 0.15*math.Sin(2*math.Pi*0.12*float64(rate)*t+float64(c))
	ph := math.Mod(t, 0.25)
	return v + 0.3*math.Exp(-ph*40)*math.Sin(2*math.Pi*(0.02*float64(rate)+0.2*float64(rate)*ph)*ph)
}

// loopSample is the loop's signal: 480 Hz at half scale, 240 whole
// cycles in its half second, so that played looped it is one tone.
func loopSample(i, c, rate int) float64 {
	return 0.5 * math.Sin(2*math.Pi*480*float64(i)/float64(rate))
}

// quantize gives the corpus sample as a signed integer of bits bits.
func quantize(v float64, bits int) int64 {
	return int64(math.Round(v * float64(int64(1)<<(bits-1)-1)))
}

func main() {
	dir := os.Args[1]
	for _, s := range []struct {
		name           string
		rate, ch, bits int
		secs           float64
	}{
		{"mp3src_44100_2", 44100, 2, 16, 0.3},
		{"mp3src_48000_1", 48000, 1, 16, 0.3},
		{"mp3src_32000_2", 32000, 2, 16, 0.3},
		{"mp3src_22050_2", 22050, 2, 16, 0.3},
		{"mp3src_24000_1", 24000, 1, 16, 0.3},
		{"mp3src_16000_2", 16000, 2, 16, 0.3},
		{"mp3src_8000_1", 8000, 1, 16, 0.3},
		{"mp3src_11025_2", 11025, 2, 16, 0.3},
		{"mp3src_12000_2", 12000, 2, 16, 0.3},
		{"mp3src_8000_1_long", 8000, 1, 16, 11},
		{"flac_44100_2_16", 44100, 2, 16, 0.3},
		{"flac_96000_1_24", 96000, 1, 24, 0.2},
		{"flac_8000_2_8", 8000, 2, 8, 0.3},
		{"flac_48000_6_16", 48000, 6, 16, 0.2},
		{"flac_192000_2_24", 192000, 2, 24, 0.1},
		{"flac_8000_1_8_long", 8000, 1, 8, 11},
		{"loop_48000_2", 48000, 2, 16, 0.5},
	} {
		n := int(s.secs * float64(s.rate))
		sample := corpusSample
		if s.name == "loop_48000_2" {
			sample = loopSample
		}
		var data bytes.Buffer
		for i := range n {
			for c := range s.ch {
				q := quantize(sample(i, c, s.rate), s.bits)
				switch s.bits {
				case 8:
					data.WriteByte(byte(q + 128))
				case 16:
					binary.Write(&data, binary.LittleEndian, int16(q))
				case 24:
					data.Write([]byte{byte(q), byte(q >> 8), byte(q >> 16)})
				}
			}
		}
		var b bytes.Buffer
		b.WriteString("RIFF")
		binary.Write(&b, binary.LittleEndian, uint32(36+data.Len()))
		b.WriteString("WAVEfmt ")
		for _, v := range []any{uint32(16), uint16(1), uint16(s.ch), uint32(s.rate), uint32(s.rate * s.ch * s.bits / 8),
			uint16(s.ch * s.bits / 8), uint16(s.bits)} {
			binary.Write(&b, binary.LittleEndian, v)
		}
		b.WriteString("data")
		binary.Write(&b, binary.LittleEndian, uint32(data.Len()))
		b.Write(data.Bytes())
		if err := os.WriteFile(filepath.Join(dir, s.name+".wav"), b.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
