# tandem: `make run` runs the demo, `make test` runs every test.
# Both install what is missing first: Debian packages through apt-get (as
# root, or with sudo), Go modules through the go command itself.

GO      ?= go
BIN     := bin/tandem
OUT     := out
# The Debian packages GLFW's cgo build and the GL tests need, and qemu-user
# for the arm64 determinism test; libxi-dev also for the window's own wait
# for input (XInput2's raw events); MinGW-w64 and Wine for the
# Windows build and its tests (make windows, make test-windows);
# pulseaudio, pulseaudio-utils (parec, pactl) and libasound2-plugins for
# the audio tests, which start a PulseAudio server with a null sink and
# record its monitor, and play through ALSA's pulse plugin for the ALSA
# fallback.
DEBS    := xvfb xauth libgl1-mesa-dev libgl1-mesa-dri libx11-dev libxcursor-dev \
           libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev qemu-user \
           gcc-mingw-w64-x86-64 wine pulseaudio pulseaudio-utils libasound2-plugins
# Without a display, everything that opens a window runs under Xvfb, where
# Mesa's llvmpipe gives OpenGL 4.5 core.
XVFB    := $(if $(DISPLAY),,xvfb-run -a -s "-screen 0 1280x720x24")
# The GL tests share the 2 cores with the sim and the race detector, and
# draw with llvmpipe's two rasterizer threads (Mesa's default here). Only
# for the tests: the bench sets its own (0) unless told otherwise, and
# `make bench` and `make pacing` measure what `tandem bench` does.
test: export LP_NUM_THREADS ?= 2
# How many inputs make test gives each fuzzer past its corpus; what they
# take is in docs/results/2026-11-27-make-test.md. Counts, not a duration: in Go 1.26 a
# -fuzztime duration's deadline races the fuzzer's workers and can fail a
# run that found nothing ("context deadline exceeded", go.dev/issue/75804).
# A new input is minimized for at most 10,000 runs, not the default minute,
# which left the level fuzzer minimizing for most of its time.
FUZZ_LEVEL  ?= 200000x
FUZZ_REPLAY ?= 250000x
# The sound fuzzers read a whole sound per input (and stream it): fewer
# inputs, and a short minimization, which at the default sat for minutes.
FUZZ_SOUND  ?= 15000x
FUZZMIN     := -fuzzminimizetime 10000x

.PHONY: all deps build windows test test-race test-race-root test-race-root2 test-norace test-stops test-slow test-arm64 test-fuzz test-windows test-darwin wine-shim bench pacing run clean

all: build

deps:
	@missing=""; for p in $(DEBS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "deps: installing Debian packages:$$missing"; \
	if [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then \
	  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else \
	  echo "deps: cannot install as a normal user without sudo; run:"; \
	  echo "  sudo apt-get update && sudo apt-get install -y$$missing"; \
	  exit 1; \
	fi

build: deps
	$(GO) build -o $(BIN) ./cmd/tandem

test: deps
	@bad=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$bad" ]; then echo "gofmt needed on:"; echo "$$bad"; exit 1; fi
	$(GO) vet ./...
	# Four packages at a time, and the root package's longest tests in
	# two more processes beside them (a package's tests run one after
	# another): the GL tests draw on llvmpipe, but the sound tests and the
	# child-process tests mostly wait (a click's real time, a child's
	# Xvfb), and nothing timed runs under -race.
	# Beside them, and on beside the next step when it takes longer (on a
	# fresh machine it builds GLFW for Windows), what the Windows side
	# builds and its Wine prefix (scripts/windows-test prep, in the
	# background, its output in $(OUT)/windows-prep.log): cached builds
	# and wineboot's wait, little CPU, and no program under Wine but
	# wineboot.
	@mkdir -p $(OUT); rm -f $(OUT)/windows-prep.rc; \
	(scripts/windows-test prep >$(OUT)/windows-prep.log 2>&1; echo $$? >$(OUT)/windows-prep.rc) </dev/null >/dev/null 2>&1 &
	$(MAKE) --no-print-directory -j3 test-race test-race-root test-race-root2
	# What runs without the race detector, side by side: nothing in these
	# asserts a time the others could stretch. Each prints its output
	# whole when it ends.
	$(MAKE) --no-print-directory --output-sync=target -j6 test-norace test-stops test-slow test-arm64 test-fuzz test-darwin
	@while [ ! -s $(OUT)/windows-prep.rc ]; do sleep 1; done; \
	echo "scripts/windows-test prep:"; cat $(OUT)/windows-prep.log; exit $$(cat $(OUT)/windows-prep.rc)
	# Timed alone, with nothing else running: the root package's one test
	# after another, then the audio package's clicks through a sound
	# server (beside the root's GL tests, on CI's machine, its ALSA clicks
	# underran and its pulse plugin's stream stalled). The
	# frame's allocations (the runtime's own, rare, count a frame at a time:
	# a frame rate starved by the other tests makes them many a frame), real
	# key presses' stamps, a CPU profile's split, a stuck tick's bound (beside
	# the other tests a pipelined run outlasted it: docs/testing.md), the
	# sounds heard through the loop and through the device against their
	# ticks, a real key press heard from outside (a loaded machine's sound
	# server plays silence when a client is not scheduled, and every click
	# after it is heard that much later).
	$(XVFB) $(GO) test -count=1 -run 'FrameAllocs|RealKeyStamps|CoupledProfileSplits|StuckTick|LoopClicksHeard|PressToSound' .
	$(GO) test -count=1 -run '$(SOUND_TIMED)' ./audio
	# Wine last, alone: beside the other tests, Wine 8.0 faulted at a
	# program's exit now and then (its debugger then waits).
	scripts/windows-test run

# The root package's longest tests under -race, apart from the rest, in
# two more processes (a package's tests run one after another).
RACE_ROOT := TestPresentHold|TestRecordReplayEveryLoop|TestRecordDiskFull|TestHostFloor|TestRecordOnSignal|TestSIGTERM|TestLargestLevel
RACE_ROOT2 := TestSoundFaultsInRun|TestDrawFrames|TestRecordSurvivesKill|TestDisplayLost|TestScreenshotAfterTwoSeconds
# The audio package's tests that time clicks through a sound server: in
# the timed pass, not under -race.
SOUND_TIMED := ^TestPulseClicks$$|^TestALSAFallback$$|^TestALSAUnderrun$$
# Arithmetic on one goroutine that the race detector slows five to ten
# times and has nothing to find in: decoding and resampling whole sounds,
# 200 simulated matrices of exact rank tests, charts drawn from whole runs,
# the mixer pulled by a fake device at every phase, and its allocation
# count (a count the race runtime's own allocations spoil; the streamer's
# goroutine is the streaming tests' to race-check).
# They run in test-slow, without it.
RACE_FREE := ^(TestCorpusWAV|TestForgedFiles|TestResampleAllocs|TestResampleFigures|TestLooksNullRate|TestRunFiles|TestPulledAtAnyPhase|TestMixerAllocs)$$
test-race:
	$(XVFB) $(GO) test -race -count=1 -p 4 -parallel 4 -skip '^($(RACE_ROOT)|$(RACE_ROOT2))$$|$(SOUND_TIMED)|$(RACE_FREE)' ./...
test-race-root:
	$(XVFB) $(GO) test -race -count=1 -run '^($(RACE_ROOT))$$' .
test-race-root2:
	$(XVFB) $(GO) test -race -count=1 -run '^($(RACE_ROOT2))$$' .

# Tests too slow under -race (5 million ticks; every byte of a recording
# flipped and cut; 2 million frames streamed: one goroutine each, where the
# race detector has nothing to find), and the app's frame allocation count
# (the race runtime allocates on its own), run once without it; a
# recording must verify in every loop with and without the race detector;
# a stop whose frame outlasts its grace reads the stuck render thread's
# records, a race by design (test-norace); the stops' child processes
# test signals, not races (test-stops, beside it). The game's side of the
# API needs no cgo: its tests and examples run without it (test-slow).
test-norace:
	$(XVFB) $(GO) test -count=1 -run 'RecordReplayEveryLoop|StuckFrameStop|ReplaySounds' .
test-stops:
	$(XVFB) $(GO) test -count=1 -run 'GroupKill|SecondSignalDuringFinalWrites|CtrlCToGroup' .

test-slow:
	$(GO) test -count=1 -run 'Drift24HoursRunner|EveryByteChecked|Accuracy|StreamWholeRun|StreamInputAcrossRingWrap|$(RACE_FREE)' \
	  ./simthread ./replay ./physics ./bench ./bench/charts ./audio
	CGO_ENABLED=0 $(GO) test -count=1 .

# The same scripted play must give the same state hash on arm64: the
# demo's games through the engine's API, cross-compiled without cgo (the
# API needs none; the window and the renderer do), under qemu-user,
# against amd64's golden hashes; and physics' deterministic Sin, Cos,
# Atan2, Sqrt and Hypot: the same bits.
test-arm64:
	CGO_ENABLED=0 GOARCH=arm64 $(GO) test -c -o bin/scene.arm64.test ./examples/scene
	cd examples/scene && qemu-aarch64 ../../bin/scene.arm64.test -test.run 'GoldenHash|Determinism|Shooter' -test.count 1
	CGO_ENABLED=0 GOARCH=arm64 $(GO) test -c -o bin/physics.arm64.test ./physics
	cd physics && qemu-aarch64 ../bin/physics.arm64.test -test.run 'GoldenHash|Determinism' -test.count 1

# Each fuzzer for a bounded number of inputs beyond its seed corpus
# (testdata/fuzz), checking the time and memory bounds of what it reads: a
# crasher fails the run and is saved there, failing every run after.
test-fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParseLevel$$' -fuzztime $(FUZZ_LEVEL) $(FUZZMIN) ./physics
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZ_REPLAY) $(FUZZMIN) ./replay
	$(GO) test -run '^$$' -fuzz '^FuzzSound$$' -fuzztime $(FUZZ_SOUND) -fuzzminimizetime 100x ./audio
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeFormats$$' -fuzztime $(FUZZ_SOUND) -fuzzminimizetime 100x ./audio

# cmd/tandem and the three examples for Windows, cross-built with MinGW-w64
# to bin/windows/*.exe, statically linked: each must import only DLLs
# that Windows ships (checked with objdump). The first build compiles GLFW
# for Windows (a couple of minutes).
windows: deps
	scripts/windows-test build

# The Windows build under Wine on Xvfb, in a Wine prefix of its own
# (out/wine-prefix): the examples, recordings verified across Linux and
# Wine, Ctrl-C, SendInput, a game built outside the repository, the
# window-free packages' tests (scripts/windows-test says what each part
# checks). Without Wine or MinGW it skips, saying so; with CI=true it fails.
test-windows: deps
	scripts/windows-test

# A Wine prefix in which Go programs built for Windows start under Wine 8.0
# (out/wine-prefix, the one make test uses; WINE_PREFIX=DIR for another):
# scripts/wine-prefix builds the bcryptprimitives.dll shim from
# scripts/wine/bcryptprimitives.c into it (docs/platforms.md).
WINE_PREFIX ?= $(OUT)/wine-prefix
wine-shim: deps
	scripts/wine-prefix $(WINE_PREFIX)

# macOS on paper: no macOS SDK here, so the cgo parts (window, gl) cannot
# be built for it; the game API and every package that needs no window
# must build and vet without cgo.
test-darwin:
	@pkgs=$$($(GO) list ./... | grep -v -e '/gl$$' -e '/gl/internal/gltest$$' -e '/window$$'); \
	echo "GOOS=darwin CGO_ENABLED=0 go build && go vet: the packages that need no window"; \
	GOOS=darwin CGO_ENABLED=0 $(GO) build $$pkgs && GOOS=darwin CGO_ENABLED=0 $(GO) vet $$pkgs

# The Go benchmarks of every package, then the standard comparison of the
# four loops (about 5 minutes; tandem starts its own Xvfb without a
# display), then the bench game against the ceiling, the same quads drawn
# with nothing else, at 1000 to 100,000 sprites: the ratio per count and
# whether it holds 0.9 (about 7 minutes). BENCHFLAGS adds flags, e.g. BENCHFLAGS='-reps 3'.
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./physics ./snapshot ./simthread ./bench ./examples/scene
	$(XVFB) $(GO) test -run '^$$' -bench . -benchmem ./gl
	./$(BIN) bench -matrix -out $(OUT)/bench $(BENCHFLAGS)
	./$(BIN) bench -scaling -out $(OUT)/scaling $(BENCHFLAGS)

# The frame-pacing comparison: every way of choosing a frame's moment at
# every -fps-cap (the threaded loop's auto delay too), and on an emulated
# 60 Hz vsync, three reps (about 11 minutes). BENCHFLAGS adds flags, e.g.
# BENCHFLAGS='-sprites 1000'.
pacing: build
	./$(BIN) bench -pacing -reps 3 -out $(OUT)/pacing $(BENCHFLAGS)

# With a display: the window. Without: the same demo for 10 seconds on
# tandem's own Xvfb (in its own session, so Ctrl-C stops tandem cleanly
# instead of killing the X server under it), then where the screenshot and
# the stats went.
run: build
	@mkdir -p $(OUT)
	@if [ -n "$$DISPLAY" ]; then \
	  ./$(BIN) run -hud $(ARGS); \
	else \
	  echo "run: no display; running the demo headless for 10 s"; \
	  ./$(BIN) run -seconds 10 -autoplay -hud \
	    -screenshot $(OUT)/screenshot.png -json $(ARGS) > $(OUT)/stats.json && \
	  echo "run: screenshot: $(OUT)/screenshot.png" && \
	  echo "run: stats:      $(OUT)/stats.json" && cat $(OUT)/stats.json; \
	fi

clean:
	rm -rf bin $(OUT)
