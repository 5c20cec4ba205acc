// swift-tools-version:6.0
import PackageDescription

// MARK: - Shared settings

/// Settings every Swift target shares: Swift 6 language mode comes from the tools version.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// One system-library target per pkg-config name: a module.modulemap and a shim.h, nothing else.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
    name: "Keypane",
    products: [
        .executable(name: "keypane", targets: ["keypane"]),
    ],
    targets: [
        // MARK: - C libraries
        systemLibrary("CX11", pkgConfig: "x11", apt: ["libx11-dev"]),
        systemLibrary("CXTest", pkgConfig: "xtst", apt: ["libxtst-dev"]),
        systemLibrary("CXInput2", pkgConfig: "xi", apt: ["libxi-dev"]),
        systemLibrary("CXRandR", pkgConfig: "xrandr", apt: ["libxrandr-dev"]),
        systemLibrary("CXShape", pkgConfig: "xext", apt: ["libxext-dev"]),
        systemLibrary("CXRender", pkgConfig: "xrender", apt: ["libxrender-dev"]),
        systemLibrary("CXKBCommon", pkgConfig: "xkbcommon", apt: ["libxkbcommon-dev"]),
        systemLibrary("CCairo", pkgConfig: "cairo", apt: ["libcairo2-dev"]),
        systemLibrary("CCairoXlib", pkgConfig: "cairo-xlib", apt: ["libcairo2-dev"]),
        systemLibrary("CPangoCairo", pkgConfig: "pangocairo", apt: ["libpango1.0-dev"]),
        systemLibrary("CPangoFc", pkgConfig: "pangoft2", apt: ["libpango1.0-dev", "libfontconfig-dev"]),
        // What Keypane uses of libatspi and libdbus, declared in its shim.h: the program opens the libraries
        // with dlopen once it follows the focus (Accessibility/Libraries.swift) and is not linked with them.
        // make compares shim.h with their headers before it builds (scripts/check-c-declarations).
        .systemLibrary(name: "CAtspi"),

        // MARK: - Pure Swift
        // Reading files, warnings and the process's environment, for every module.
        .target(name: "Basics", swiftSettings: swiftSettings),
        .target(name: "KeyboardModel", dependencies: ["Basics"], swiftSettings: swiftSettings),
        .target(name: "Words", dependencies: ["Basics"], swiftSettings: swiftSettings),
        .target(name: "Typing", dependencies: ["KeyboardModel", "Words"], swiftSettings: swiftSettings),
        .target(name: "EventLoop", dependencies: ["Basics"], swiftSettings: swiftSettings),
        // Start-up step timings on stderr with KEYPANE_TRACE=1.
        .target(name: "Trace", swiftSettings: swiftSettings),

        // MARK: - Sound
        // libcanberra's header (libcanberra-dev); the library is opened with dlopen after the first frame.
        .target(name: "CCanberra"),
        .target(name: "Sound", dependencies: ["Typing", "Basics", "EventLoop", "CCanberra"], swiftSettings: swiftSettings),

        // MARK: - Accessibility bus
        .target(name: "Accessibility", dependencies: ["CAtspi", "CPangoCairo", "EventLoop", "KeyboardModel"],
                swiftSettings: swiftSettings),
        // Checks CAtspi's declarations against libatspi's and libdbus's headers when they change.

        // MARK: - X11
        .target(name: "XDisplay", dependencies: ["CX11"], swiftSettings: swiftSettings),
        .target(name: "Injector", dependencies: ["EventLoop", "XDisplay", "Typing", "CX11", "CXTest", "CXKBCommon"],
                swiftSettings: swiftSettings),
        // The keyboard's behaviour, apart from any display: the focused field, suggestions, emoji, control.
        .target(name: "KeyboardCore",
                dependencies: ["Basics", "EventLoop", "Trace", "Accessibility", "Typing", "KeyboardModel", "Words", "Sound"],
                swiftSettings: swiftSettings),
        .target(name: "X11Host",
                dependencies: ["KeyboardCore", "Basics", "EventLoop", "Trace", "Accessibility", "XDisplay", "Injector", "Typing", "KeyboardModel", "Render", "Sound",
                               "CX11", "CXInput2", "CXRandR", "CXShape", "CXRender", "CCairoXlib"],
                swiftSettings: swiftSettings),

        // MARK: - Drawing
        .target(name: "Render", dependencies: ["Basics", "KeyboardModel", "Trace", "CCairo", "CPangoCairo", "CPangoFc"],
                swiftSettings: swiftSettings),

        // MARK: - Executable
        .executableTarget(
            name: "keypane",
            dependencies: [
                "Basics", "KeyboardCore", "KeyboardModel", "Render", "Typing", "Words", "Injector", "X11Host", "XDisplay", "Sound", "Trace",
            ],
            swiftSettings: swiftSettings,
            plugins: ["BuildInfo"]),
        // Builds a dictionary file from word and word-pair counts (make builds Assets/dictionaries/*.dict).
        .executableTarget(name: "keypane-dict", dependencies: ["Words"], swiftSettings: swiftSettings),
        // The keyboard's typing engine and suggester behind a line protocol, for word benchmarks (kebbie).
        .executableTarget(name: "keypane-words", dependencies: ["KeyboardModel", "Typing", "Words"],
                          swiftSettings: swiftSettings),
        // The version (VERSION) and the commit, for keypane --version, the manual page and bug reports.
        .plugin(name: "BuildInfo", capability: .buildTool()),

        // MARK: - Benchmarks
        .executableTarget(name: "keypane-bench", dependencies: ["KeyboardCore", "KeyboardModel", "Render", "Typing", "Words", "X11Host", "CX11", "CXTest", "CXRandR", "TestSupport"],
                          path: "Benchmarks/keypane-bench", swiftSettings: swiftSettings),

        // MARK: - Tests
        .target(name: "TestSupport", dependencies: ["KeyboardModel", "Basics"], path: "Tests/TestSupport",
                swiftSettings: swiftSettings),
        .testTarget(name: "WordsTests", dependencies: ["Words"], swiftSettings: swiftSettings),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop"], swiftSettings: swiftSettings),
        .testTarget(name: "InjectorTests", dependencies: ["Injector"], swiftSettings: swiftSettings),
        .testTarget(name: "SoundTests", dependencies: ["Sound"], swiftSettings: swiftSettings),
        .testTarget(name: "BasicsTests", dependencies: ["Basics"], swiftSettings: swiftSettings),
        .testTarget(name: "KeyboardModelTests", dependencies: ["KeyboardModel", "TestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "TypingTests", dependencies: ["Typing", "KeyboardModel", "Words", "TestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "RenderTests", dependencies: ["Render", "KeyboardModel", "Basics", "CCairo", "CPangoFc", "TestSupport"],
                    exclude: ["Snapshots"], swiftSettings: swiftSettings),
        .testTarget(name: "KeypaneTests", dependencies: ["keypane", "keypane-dict", "keypane-words", "Words", "TestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "X11HostTests", dependencies: ["X11Host", "KeyboardCore", "Typing", "KeyboardModel", "TestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "EndToEndTests", dependencies: ["keypane", "KeyboardCore", "X11Host", "KeyboardModel", "TestSupport", "CX11", "CXTest", "CXInput2"],
                    swiftSettings: swiftSettings),
    ]
)
