#!/bin/sh
# Makes this folder's MP3s and FLACs, and mpg123's decodes of the MP3s
# (the references corpus_test.go compares with), from the corpus signal
# that gen writes. Needs lame 3.100, flac 1.4 and mpg123 1.31
# (apt-get install lame flac mpg123). Run from the repository's root:
#   sh audio/testdata/corpus/make.sh
set -e
out=audio/testdata/corpus
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
go run ./$out/gen "$src"
mp3() { # name source lame-options...
	name=$1 wav=$2
	shift 2
	lame --quiet "$@" "$src/$wav.wav" "$out/$name.mp3"
	mpg123 -q -s "$out/$name.mp3" >"$out/$name.s16"
}
mp3 m1-44100-joint-tag mp3src_44100_2 -b 128
mp3 m1-48000-mono mp3src_48000_1 -t -b 64 -m m
mp3 m1-32000-stereo mp3src_32000_2 -b 96 -m s
mp3 m2-22050-joint-tag mp3src_22050_2 --resample 22.05 -b 64
mp3 m2-22050-joint-8k mp3src_22050_2 --resample 22.05 -t -b 8
mp3 m2-24000-mono-8k mp3src_24000_1 --resample 24 -t -b 8 -m m
mp3 m2-16000-joint-tag mp3src_16000_2 --resample 16 -b 64
mp3 m25-8000-mono mp3src_8000_1 --resample 8 -b 8 -m m
mp3 m25-11025-joint mp3src_11025_2 --resample 11.025 -t -b 16
mp3 m25-12000-stereo-tag mp3src_12000_2 --resample 12 -b 64 -m s
# A loop: 0.5 s of 480 Hz, encoded as music is, with its LAME tag.
lame --quiet -b 192 "$src/loop_48000_2.wav" "$out/loop-48000.mp3"
# The long one (streamed): only its first and last half second are kept
# as the reference, and its length.
mp3 m25-8000-mono-long mp3src_8000_1_long --resample 8 -b 8 -m m
n=$(($(stat -c %s $out/m25-8000-mono-long.s16) / 2))
head -c 8000 $out/m25-8000-mono-long.s16 >"$src/head" && tail -c 8000 $out/m25-8000-mono-long.s16 >"$src/tail"
cat "$src/head" "$src/tail" >$out/m25-8000-mono-long.s16 && echo $n >$out/m25-8000-mono-long.frames
for f in flac_44100_2_16 flac_96000_1_24 flac_8000_2_8 flac_48000_6_16 flac_192000_2_24 flac_8000_1_8_long; do
	flac --silent -8 -f --channel-map=none -o "$out/$(echo $f | tr _ -).flac" "$src/$f.wav"
done
# G.711: the 256 A-law codes, then the 256 µ-law codes, as sox decodes them.
python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)))' >"$src/codes"
sox -t raw -r 8000 -c 1 -e a-law -b 8 "$src/codes" -t raw -e signed -b 16 "$src/a.s16"
sox -t raw -r 8000 -c 1 -e u-law -b 8 "$src/codes" -t raw -e signed -b 16 "$src/u.s16"
cat "$src/a.s16" "$src/u.s16" >$out/g711-sox.s16
