# Keypane: `make run` builds and starts the keyboard, `make test` runs every test, `make bench` measures.
# Each installs the Debian packages it needs first (only those missing).

SWIFT ?= swift
# The input click plays through libcanberra: its ALSA backend comes with it, the PulseAudio one (which
# PipeWire's pulse server takes too) is a package of its own.
# The keyboard follows the focus through the accessibility bus: libatspi, and at-spi2-core's bus launcher;
# the build checks Keypane's declarations of libatspi and libdbus against their headers (libdbus-1-dev).
# The emoji keyboard reads Unicode's emoji list (unicode-data) and draws them in colour (fonts-noto-color-emoji).
# The English dictionary takes its trigrams from CMU Sphinx's US English language model (pocketsphinx-en-us).
BUILD_PACKAGES := pocketsphinx-en-us pkg-config libx11-dev libxext-dev libxtst-dev libxi-dev libxrandr-dev libxrender-dev libxkbcommon-dev \
	libcairo2-dev libpango1.0-dev libfontconfig-dev fonts-dejavu-core libcanberra-dev libcanberra-pulse libstdc++-12-dev \
	libatspi2.0-dev libdbus-1-dev at-spi2-core unicode-data fonts-noto-color-emoji
# make deb reads the libraries the program links and strips it (binutils); dpkg-deb builds the package.
DEB_PACKAGES := binutils dpkg
# The package's checks: lintian, desktop-file-validate, appstreamcli.
CHECK_PACKAGES := lintian desktop-file-utils appstream
# The end-to-end tests run a real X server, window manager and terminal, change keymaps and screen sizes.
# The sound tests record the input click from a private PulseAudio null sink, switch event sounds with
# xsettingsd, and remake the click sounds with scripts/make-sounds (python3); the control tests talk to
# the socket from python3, as another user through setpriv (util-linux); the manual is checked with groff;
# keypane-dict's reading of Sphinx's models is tested on a model made by sphinx_lm_convert (sphinxbase-utils);
# the source tarball is built with no network through unshare (util-linux) and git archive; the
# auto-show tests run a private session bus (dbus), GTK 3 (with a VTE terminal) and Qt 5 windows from Debian's
# python3, Firefox ESR and Chromium, and Xephyr for a keyboard device that is not XTest's.
AUTO_SHOW_TEST_PACKAGES := dbus python3-gi gir1.2-gtk-3.0 gir1.2-vte-2.91 python3-pyqt5 firefox-esr chromium \
	xserver-xephyr
# The touch tests run Xorg with the dummy video driver and the inputtest driver (in xserver-xorg-core), whose
# touch screen makes real XI2 touches.
TOUCH_TEST_PACKAGES := xserver-xorg-core xserver-xorg-video-dummy
TEST_PACKAGES := $(BUILD_PACKAGES) $(TOUCH_TEST_PACKAGES) sphinxbase-utils xvfb openbox xterm x11-xkb-utils x11-xserver-utils zenity \
	pulseaudio pulseaudio-utils xsettingsd python3 util-linux groff-base git $(DEB_PACKAGES) $(CHECK_PACKAGES) $(AUTO_SHOW_TEST_PACKAGES)
# make bench runs matchbox-keyboard through the same taps, for a ratio rather than two absolute times, and
# hunspell (with its US English, German and French dictionaries) as the baseline of the suggestion figures.
BENCH_PACKAGES := $(TEST_PACKAGES) matchbox-keyboard valgrind binutils hunspell hunspell-en-us hunspell-de-de hunspell-fr python3-venv \
	gir1.2-atspi-2.0
# kebbie and the pyspellchecker baseline, in a Python environment of the bench's own (from PyPI, pinned).
WORDS_VENV := .build/words-bench-venv

.PHONY: all deps test-deps build release run install deb dist check test soak starts busy fuzz bench words-bench slide-bench words-venv screenshots clean dictionaries order

all: build

# The dictionaries for suggestions, one per language, built from the word counts (and the word-pair counts
# where a language has them) in Dictionaries/LANG by keypane-dict (made by the build it follows), with
# English's trigrams from CMU Sphinx's language model; keypane finds them in Assets/dictionaries (installed:
# share/keypane). Dictionaries/README.md says where the counts come from.
DICTIONARIES := $(patsubst Dictionaries/%/words.txt,Assets/dictionaries/%.dict,$(wildcard Dictionaries/*/words.txt))
DICT_TOOL ?= .build/release/keypane-dict
TRIGRAMS_en := /usr/share/pocketsphinx/model/en-us/en-us.lm.bin
.SECONDEXPANSION:
Assets/dictionaries/%.dict: Dictionaries/%/words.txt $$(wildcard Dictionaries/$$*/pairs.txt) \
		$$(wildcard Dictionaries/$$*/cases.txt) $$(wildcard Dictionaries/$$*/extra.txt Dictionaries/$$*/web.txt) \
		$$(TRIGRAMS_$$*) $(DICT_TOOL)
	@mkdir -p Assets/dictionaries
	$(DICT_TOOL) Dictionaries/$*/words.txt $(wildcard Dictionaries/$*/pairs.txt) \
		$(addprefix --cases ,$(wildcard Dictionaries/$*/cases.txt)) $(addprefix --extra ,$(wildcard Dictionaries/$*/extra.txt Dictionaries/$*/web.txt)) \
		$(if $(TRIGRAMS_$*),--trigrams $(TRIGRAMS_$*)) $@
dictionaries: $(DICTIONARIES)

deps:
	@scripts/install-packages $(BUILD_PACKAGES)

test-deps:
	@scripts/install-packages $(TEST_PACKAGES)

# What Keypane declares of libatspi and libdbus (Sources/CAtspi/shim.h), which it opens with dlopen, checked
# against the libraries' own headers with the toolchain's clang: a declaration that differs fails the build.
# A step of make's, not a SwiftPM plugin: a second plugin made swift build hang where the network namespace
# has no loopback (the offline build of make test's test-dist).
CLANG := $(or $(wildcard $(dir $(realpath $(shell command -v $(SWIFT))))clang),clang)
C_DECLARATIONS := .build/c-declarations-checked
$(C_DECLARATIONS): Sources/CAtspi/shim.h Sources/Accessibility/Libraries.swift scripts/check-c-declarations \
		scripts/check-c-declarations.c
	@mkdir -p .build
	scripts/check-c-declarations $(CURDIR) $(CLANG) $@

build: deps $(C_DECLARATIONS)
	$(SWIFT) build
	$(MAKE) dictionaries DICT_TOOL=.build/debug/keypane-dict

# The release links libstdc++ (the Swift runtime's C++ library) in as well as Swift's standard library:
# the dynamic loader then binds some 1,700 fewer symbols at each start. The linker finds the archive
# through a linker script named like the shared library, ahead of the system's.
STATIC_CXX := $(lastword $(sort $(wildcard /usr/lib/gcc/x86_64-linux-gnu/*/libstdc++.a)))
RELEASE_FLAGS := -c release --static-swift-stdlib $(if $(STATIC_CXX),-Xlinker -L$(CURDIR)/.build/static-cxx)
# Each function in a section of its own, linked by the toolchain's lld with scripts/keypane.ld, which puts
# the sections start-up and typing run side by side before the rest (the kernel maps code 64 KiB around each
# page first run, so scattered code made most of the program resident; a linker script names sections, so
# it also places the functions Swift gives no symbol); relative relocations packed (RELR, glibc 2.36),
# 40,000 of them in 5 KiB instead of 950 KiB read at each start. make order remakes the list.
# No implicit import of Swift's concurrency module, which Keypane does not use: without it the release
# links neither the concurrency runtime nor libdispatch, whose start-up code (the main executor, dispatch's
# initializer) made some 0.45 MiB of code resident (make bench: private 6.4-6.5 -> 6.0 MiB).
# No symbols exported from the program (swiftc links executables with --export-dynamic): nothing looks
# Keypane's own symbols up at run time, and their 2,700 names and hash table, which the dynamic loader
# searched at each start, kept some 200 KiB of the program resident (2.5 s after start, four runs each:
# 3,670-3,840 -> 3,480-3,590 KiB).
RELEASE_FLAGS += -Xlinker --no-export-dynamic
# Nor of the string processing module (regular expressions): two calls to its String searches linked all
# of it and its regex parser, 1 MB of code whose data (some 100 KiB resident, 30 KiB of it relocated at each
# start) and registration the start paid for.
# No run-time exclusivity checks in the release: the debug build the tests run keeps them, and in the
# release they cost some 6% of a tap's instructions (each access to a class's stored array or dictionary).
RELEASE_FLAGS += -Xswiftc -enforce-exclusivity=unchecked
RELEASE_FLAGS += -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld \
	-Xswiftc -Xfrontend -Xswiftc -disable-implicit-concurrency-module-import \
	-Xswiftc -Xfrontend -Xswiftc -disable-implicit-string-processing-module-import \
	-Xlinker -z -Xlinker pack-relative-relocs \
	$(if $(wildcard scripts/keypane.ld),-Xlinker -T -Xlinker $(CURDIR)/scripts/keypane.ld)

release: deps $(C_DECLARATIONS)
	@# The link reads the function order, which SwiftPM does not know of: a newer order relinks.
	@if [ -f .build/release/keypane ] && [ scripts/keypane.ld -nt .build/release/keypane ]; then rm -f .build/release/keypane; fi
	@if [ -n "$(STATIC_CXX)" ]; then mkdir -p .build/static-cxx && echo "INPUT($(STATIC_CXX))" > .build/static-cxx/libstdc++.so; fi
	$(SWIFT) build $(RELEASE_FLAGS)
	$(MAKE) dictionaries

run: release
	.build/release/keypane $(ARGS)

# Installs the program and its data (layouts, sounds, dictionaries, the settings panel's words) under $(DESTDIR)$(PREFIX): keypane finds its data
# in ../share/keypane beside itself.
PREFIX ?= /usr/local
install: release
	install -D -m 755 .build/release/keypane $(DESTDIR)$(PREFIX)/bin/keypane
	install -d $(DESTDIR)$(PREFIX)/share/keypane/layouts $(DESTDIR)$(PREFIX)/share/keypane/sounds \
		$(DESTDIR)$(PREFIX)/share/keypane/dictionaries $(DESTDIR)$(PREFIX)/share/keypane/panel
	install -m 644 Assets/layouts/* $(DESTDIR)$(PREFIX)/share/keypane/layouts
	install -m 644 Assets/panel/*.po $(DESTDIR)$(PREFIX)/share/keypane/panel
	install -m 644 $(DICTIONARIES) $(DESTDIR)$(PREFIX)/share/keypane/dictionaries
	install -m 644 Assets/sounds/*.wav $(DESTDIR)$(PREFIX)/share/keypane/sounds

# scripts/keypane.ld, the functions start-up and typing run, traced from the release program under Xvfb
# (scripts/order-file says how); the next make release links by it. Remade before tagging a release, not
# in feature commits: a function the list names no more is skipped, and one it does not name yet is
# linked after those it names, so an order out of date costs a little memory, never a build.
order: release test-deps
	@scripts/install-packages binutils gcc libc6-dev
	scripts/order-file

# The Debian package, in out/: the program, its layouts and sounds, desktop and autostart entries, the
# manual page and AppStream metadata (packaging/build-deb says more).
deb: release
	@scripts/install-packages $(DEB_PACKAGES)
	packaging/build-deb .build/release/keypane out

# The source tarball of the committed tree, out/keypane-VERSION.tar.gz; it builds offline with make.
dist:
	scripts/make-dist out

# The fast inner loop: every test but the end-to-end ones, with no X server and nothing installed.
check: $(C_DECLARATIONS)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip EndToEndTests

# The package test makes a package of the release program, as make deb does, and checks it with lintian.
# The source tarball is built from scratch after the Swift tests, not beside the X tests.
test: test-deps
	$(MAKE) release
	$(SWIFT) build --build-tests
	$(SWIFT) test
	scripts/test-dist

# The soak: 10,000 random taps over every keyboard type and layer into xterm, with long presses, slides,
# Globe switches, resizes and hides (Tests/EndToEndTests/SoakTests.swift), on the release program; about
# 15 minutes. SOAK=N for another count, KEYPANE_SOAK_SEED=N to repeat a run.
# INPUT=touch soaks with real touches instead (Xorg's inputtest touch screen): overlapping fingers, slides,
# long touches.
SOAK ?= 10000
INPUT ?= pointer
soak: test-deps
	$(MAKE) release
	$(SWIFT) build --build-tests
	KEYPANE_SOAK=$(SOAK) KEYPANE_SOAK_INPUT=$(INPUT) KEYPANE_SOAK_PROGRAM=$(CURDIR)/.build/release/keypane \
		$(SWIFT) test --skip-build --filter $(if $(filter touch,$(INPUT)),SoakTests.randomTouches,SoakTests.randomTaps)

# The keyboard started STARTS times in a row beside two busy loops, each left to come up and then ended
# (Tests/EndToEndTests/StartsTests.swift), on the release program: every start must come up and exit 0.
STARTS ?= 300
starts: test-deps
	$(MAKE) release
	$(SWIFT) build --build-tests
	KEYPANE_STARTS=$(STARTS) KEYPANE_STARTS_PROGRAM=$(CURDIR)/.build/release/keypane \
		$(SWIFT) test --skip-build --filter StartsTests

# The busy-machine tests with every client: Russian and emoji typed at once into xterm, a GTK entry and a Qt
# line edit with two busy loops (make test types into xterm alone; see BusyMachineEndToEndTests.swift).
busy: test-deps
	$(SWIFT) build --build-tests
	KEYPANE_BUSY_EVERY_CLIENT=1 $(SWIFT) test --skip-build --filter BusyMachineEndToEndTests

# The property tests of the readers (layout files, the settings file, control requests, geometry JSON, the
# header of the first frame's picture), each on FUZZ_ITERATIONS mutated inputs instead of make test's few
# hundred; KEYPANE_FUZZ_SEED=N repeats a run.
FUZZ_ITERATIONS ?= 20000
fuzz: test-deps
	$(SWIFT) build --build-tests
	KEYPANE_FUZZ_ITERATIONS=$(FUZZ_ITERATIONS) $(SWIFT) test --skip-build \
		--filter "mutatedLayoutFilesLoadOrAreNamedWithTheirLine|geometryJSONReadsBackWhateverTheLabels|mutatedRequestsReadBackOrAreRefused|mutatedPictureHeadersReadBackOrAreRefused"
	KEYPANE_FUZZ_ITERATIONS=$$(( $(FUZZ_ITERATIONS) / 20 )) $(SWIFT) test --skip-build --filter mutatedSettingsFilesAreReadOrNamed

# BASELINE=path/to/keypane runs the same parts again for another build (an older commit's release program),
# right after, so that old and new are measured in one run.
bench: release
	@scripts/install-packages $(BENCH_PACKAGES)
	.build/release/keypane-bench --keypane .build/release/keypane --layouts Assets/layouts $(ARGS)
	$(if $(BASELINE),@echo "== the same for the baseline $(BASELINE)" && .build/release/keypane-bench --keypane $(BASELINE) --layouts Assets/layouts $(ARGS))
	@case "$(ARGS)" in ""|*suggest*) $(MAKE) --no-print-directory words-bench ;; *slide*) $(MAKE) --no-print-directory slide-bench ;; esac

# Keypane's words measured by kebbie on 1,000 held-out sentences (Benchmarks/data/README.md), beside the
# plain lookups and pyspellchecker in the same run, and slide to type on 2,000 words of them (strokes from
# kebbie's generator and a minimum-jerk one). About 15 minutes here, most of it the baseline. Then
# corrections in seven other languages on their held-out sentences (about 10 minutes).
words-bench: words-venv
	$(WORDS_VENV)/bin/python Benchmarks/kebbie/evaluate.py .build/release/keypane-words Benchmarks/data/held-out-en.txt --count 1000
	python3 Benchmarks/languages/evaluate.py .build/release/keypane-words

# Slide to type alone: kebbie's and minimum-jerk strokes over 2,000 held-out words (about a minute).
slide-bench: words-venv
	$(WORDS_VENV)/bin/python Benchmarks/kebbie/evaluate.py .build/release/keypane-words Benchmarks/data/held-out-en.txt --count 0

words-venv: release
	@scripts/install-packages python3-venv
	@[ -x $(WORDS_VENV)/bin/python ] || python3 -m venv $(WORDS_VENV)
	@$(WORDS_VENV)/bin/pip install --quiet --disable-pip-version-check -r Benchmarks/kebbie/requirements.txt

# The README's pictures, made by keypane render.
screenshots: build
	.build/debug/keypane render --type default --width 390 --height 280 --bar '"statoin"|[station]|stations' --popup preview:g --output docs/default-compact.png
	.build/debug/keypane render --type email --width 1024 --height 340 --return-key go --theme dark --output docs/email-regular-dark.png
	.build/debug/keypane render --type default --width 1024 --height 400 --bar 'the|to|you' --output docs/default-regular.png
	.build/debug/keypane render --type phone-pad --width 390 --height 260 --output docs/phone-pad.png
	.build/debug/keypane render --type desktop --width 1280 --height 400 --theme high-contrast-dark --output docs/desktop-high-contrast-dark.png

clean:
	rm -rf .build out
