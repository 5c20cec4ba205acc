# Keypane: `make run` builds and starts the keyboard, `make test` runs every test, `make bench` measures.
# Each installs the Debian packages it needs first (only those missing).

SWIFT ?= swift
BUILD_PACKAGES := pkg-config libx11-dev libxtst-dev libxi-dev libxrandr-dev libxkbcommon-dev \
	libcairo2-dev libpango1.0-dev fonts-dejavu-core
# The end-to-end tests run a real X server, window manager and terminal, change keymaps and screen sizes.
TEST_PACKAGES := $(BUILD_PACKAGES) xvfb openbox xterm x11-xkb-utils x11-xserver-utils zenity
# make bench runs matchbox-keyboard through the same taps, for a ratio rather than two absolute times.
BENCH_PACKAGES := $(TEST_PACKAGES) matchbox-keyboard

.PHONY: all deps test-deps build release run test bench screenshots clean

all: build

deps:
	@scripts/install-packages $(BUILD_PACKAGES)

test-deps:
	@scripts/install-packages $(TEST_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --static-swift-stdlib

run: deps
	$(SWIFT) build -c release --static-swift-stdlib
	.build/release/keypane $(ARGS)

test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

bench: release
	@scripts/install-packages $(BENCH_PACKAGES)
	.build/release/keypane-bench --keypane .build/release/keypane --layouts Assets/layouts $(ARGS)

# The README's pictures, made by keypane render.
screenshots: build
	.build/debug/keypane render --type default --width 750 --height 300 --output docs/default-compact.png
	.build/debug/keypane render --type email --width 1024 --height 340 --return-key go --theme dark --output docs/email-regular-dark.png

clean:
	rm -rf .build out
