import KeyboardCore
import CX11
import Foundation
import TestSupport
import Testing
import X11Host

/// `make soak`: KEYPANE_SOAK random taps (10,000 there) at about 20 a second over every keyboard type and
/// layer, into xterm, with shift, caps lock, long presses, slides from key to key, Globe switches, screen
/// resizes and hides and shows in between. Every tap's character must arrive once and only once, nothing
/// extra; no key may be left down; the keymap after exit must equal the one before; RSS must stay flat
/// (less than 1 MiB of growth after the first 500 taps, both measured at rest). Skipped in `make test`.
@Suite struct SoakTests {
    static let taps = Int(ProcessInfo.processInfo.environment["KEYPANE_SOAK"] ?? "") ?? 0

    /// The bytes a tap of `key` sends to a terminal in raw mode, or nil for a key the soak leaves alone
    /// (modifiers, arrows, function keys: escape sequences of the terminal's own).
    /// `shifted`: shift is on (latched or held, not caps lock), which a key sent by its keysym carries
    /// (xterm's Shift+Tab is back-tab, ESC [ Z), on any layer.
    static func bytes(of key: GeometryKey, shifted: Bool = false) -> [UInt8]? {
        if let text = key.text { return Array(text.utf8) }
        switch key.keysym {
        case "BackSpace": return [0x7f]
        case "Return", "KP_Enter": return [0x0d]
        case "Tab": return shifted ? [0x1b, 0x5b, 0x5a] : [0x09]
        default: break
        }
        guard let action = key.action else { return nil }
        // Keys that change the keyboard and type nothing.
        if action.hasPrefix("layer:") || ["shift", "caps-lock", "globe", "dismiss"].contains(action) { return [] }
        return nil
    }

    /// A field of /proc/PID/status in KiB: VmRSS, RssAnon (the heap and stacks) or RssFile (code and data
    /// mapped from files).
    static func memory(_ pid: pid_t, _ field: String = "VmRSS") -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    /// Leaves the keyboard alone until it has given back the memory freed while typing
    /// (`KeyboardHost.memoryRest`): memory is compared at rest, after the warm-up and at the end.
    static func rest() { usleep(useconds_t((KeyboardHost.memoryRest + 0.5) * 1_000_000)) }

    static func memoryLine(_ pid: pid_t) -> String {
        "RSS \(memory(pid)) KiB (anonymous \(memory(pid, "RssAnon")), files \(memory(pid, "RssFile")))"
    }

    /// The program soaked: KEYPANE_SOAK_PROGRAM (make soak gives the release build, what people run), else
    /// the one built with the tests.
    static let program = ProcessInfo.processInfo.environment["KEYPANE_SOAK_PROGRAM"] ?? keypanePath

    @Test(.enabled(if: taps > 0, "make soak sets KEYPANE_SOAK"), .timeLimit(.minutes(60)))
    func randomTapsArriveOnceAndOnlyOnce() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["KEYPANE_SOAK_SEED"] ?? "") ?? UInt64(time(nil))
        print("soak: \(Self.taps) taps, seed \(seed) (KEYPANE_SOAK_SEED repeats a run), \(Self.program)")
        var random = Fuzz(seed: seed)
        let session = try XSession(width: 1920, height: 1920)
        defer { session.stop() }
        try session.setScreenSize(width: 1280, height: 800)
        let keymapBefore = try session.keymapDump()
        let terminal = try Terminal(session: session)
        let types = ["default", "ascii", "numbers-punctuation", "url", "number-pad", "phone-pad", "name-phone-pad",
                     "email", "decimal-pad", "social", "web-search", "ascii-number-pad", "desktop"]
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", types.joined(separator: ","),
                                                                      "--no-suggestions"], program: Self.program)
        keyboard.extra = ["--no-suggestions", "--globe"]
        let socket = session.runtimeDirectory.appendingPathComponent("keypane-\(session.display.dropFirst()).socket").path
        func status() throws -> [String: String] {
            ControlEndToEndTests.fields(try ControlSocket.send(.status, to: socket))
        }
        // A person taps once the keyboard is on screen: a tap sooner lands on the desktop behind it, where
        // the window manager takes the focus from the terminal.
        func waitUntilShown() {
            _ = waitUntil { session.window(classNamed: "keypane") != nil }
            usleep(100_000)
        }
        func press(_ key: GeometryKey) { session.press(x: keyboard.frame.x + key.centre.0, y: keyboard.frame.y + key.centre.1) }
        let sizes = [(1280, 800), (800, 1280), (1024, 768), (480, 854), (1920, 1080)]
        var expected: [UInt8] = []
        var counts = (taps: 0, long: 0, slides: 0, resizes: 0, hides: 0, globes: 0)
        var rssAfterWarmUp = 0
        let warmUp = min(500, Self.taps / 10)
        let start = Date()
        // Rounds that find the keyboard hidden (its dismiss key, or "Hide keyboard" in the Globe list, was
        // tapped) show it again and tap nothing: the soak goes on until it has made its taps.
        var index = -1
        while counts.taps < Self.taps {
            index += 1
            let begun = Date()
            if counts.taps == warmUp, rssAfterWarmUp == 0 {
                Self.rest()
                rssAfterWarmUp = Self.memory(keyboard.process.processIdentifier)
                print("soak: after \(warmUp) taps, \(Self.memoryLine(keyboard.process.processIdentifier))")
            }
            if index % 1000 == 999 {
                let (width, height) = sizes[(index / 1000) % sizes.count]
                try session.setScreenSize(width: width, height: height)
                #expect(keyboard.waitForFrame { $0.width == width && $0.y + $0.height == height }, "resize to \(width)x\(height)")
                counts.resizes += 1
            }
            if index % 700 == 350 {
                _ = try ControlSocket.send(.hide, to: socket)
                _ = try ControlSocket.send(.show, to: socket)
                waitUntilShown()
                counts.hides += 1
            }
            let now = try status()
            if now["visible"] != "yes" {
                // The dismiss key (or "Hide keyboard" from the Globe list) hid it: show it again.
                _ = try ControlSocket.send(.show, to: socket)
                waitUntilShown()
                continue
            }
            let geometry = try keyboard.geometry(type: now["type"] ?? "default", layer: now["layer"])
            let usable = geometry.keys.filter { Self.bytes(of: $0) != nil }
            let typing = usable.filter { !(Self.bytes(of: $0) ?? []).isEmpty && $0.text != nil }
            let choice = Int.random(in: 0..<100, using: &random)
            if choice < 4, let key = typing.randomElement(using: &random) {
                // A long press, let go where it began: the key's own character; the space bar held is a
                // trackpad, which types nothing.
                press(key)
                usleep(700_000)
                session.release()
                expected += key.text == " " ? [] : Self.bytes(of: key)!
                counts.long += 1
            } else if choice < 10, let from = typing.filter({ $0.text != " " }).randomElement(using: &random),
                      let to = typing.randomElement(using: &random) {
                // A slide from one key to another: the key let go on types. (A slide from the space bar moves
                // the caret, as EditingByTouchTests show.)
                press(from)
                session.move(x: keyboard.frame.x + to.centre.0, y: keyboard.frame.y + to.centre.1)
                session.release()
                expected += Self.bytes(of: to)!
                counts.slides += 1
            } else if let key = usable.randomElement(using: &random) {
                // Globe switches come from the usable keys too, weighted up so that every type is visited.
                let target = choice < 14 ? (geometry.key(action: "globe") ?? key) : key
                keyboard.tap(target)
                expected += Self.bytes(of: target, shifted: now["shift"] == "on")!
                if target.action == "globe" { counts.globes += 1 }
            }
            counts.taps += 1
            // About 20 taps a second, counting the time the tap itself took.
            let spent = Date().timeIntervalSince(begun)
            if spent < 0.05 { usleep(useconds_t((0.05 - spent) * 1_000_000)) }
            if index % 1000 == 0 {
                let arrived = terminal.bytes.count
                print("soak: \(index) rounds, \(counts.taps) taps, \(expected.count) bytes expected, \(arrived) arrived, \(Self.memoryLine(keyboard.process.processIdentifier))")
            }
        }
        let outcome = try Self.finish(terminal: terminal, expected: expected, keyboard: keyboard, session: session,
                                      keymapBefore: keymapBefore, rssAfterWarmUp: rssAfterWarmUp) {
            try session.setScreenSize(width: 1280, height: 800)
        }
        print("soak: \(counts.taps) taps (\(counts.long) long presses, \(counts.slides) slides, \(counts.globes) Globe taps, "
              + "\(counts.resizes) resizes, \(counts.hides) hides) in \(Int(Date().timeIntervalSince(start))) s; "
              + "\(outcome) (RSS after \(warmUp) taps first)")
    }

    /// The end of a soak: what arrived compared with what was tapped, memory at rest against
    /// `rssAfterWarmUp`, no key left down, a clean exit and the keymap after it (`beforeKeymap` puts the
    /// screen back first); returns the figures for the summary.
    static func finish(terminal: Terminal, expected: [UInt8], keyboard: LiveKeyboard, session: XSession,
                       keymapBefore: String, rssAfterWarmUp: Int, beforeKeymap: () throws -> Void = {}) throws -> String {
        let normalise = { (bytes: [UInt8]) in bytes.map { $0 == 0x08 ? 0x7f : $0 } }
        _ = waitUntil(timeout: 20) { normalise(Array(terminal.bytes)) == expected }
        let arrived = normalise(Array(terminal.bytes))
        let same = arrived == expected
        if !same {
            let first = (0..<min(arrived.count, expected.count)).first { arrived[$0] != expected[$0] } ?? min(arrived.count, expected.count)
            let show = { (bytes: [UInt8]) in String(decoding: bytes[max(0, first - 40)..<min(bytes.count, first + 40)], as: UTF8.self).debugDescription }
            Issue.record("bytes differ at \(first) of \(expected.count) expected, \(arrived.count) arrived: expected \(show(expected)), arrived \(show(arrived))")
        }
        rest()
        let rssEnd = memory(keyboard.process.processIdentifier)
        let memoryAtEnd = memoryLine(keyboard.process.processIdentifier)
        #expect(session.keysDown().isEmpty, "keys left down: \(session.keysDown())")
        let (status, messages) = keyboard.terminate()
        #expect(status == 0, "\(messages)")
        try beforeKeymap()
        #expect(try session.keymapDump() == keymapBefore, "the keymap after exit differs")
        #expect(rssEnd - rssAfterWarmUp < 1024, "RSS grew from \(rssAfterWarmUp) to \(rssEnd) KiB")
        return "\(expected.count) bytes expected, \(arrived.count) arrived, \(same ? "identical" : "DIFFERENT"); "
            + "RSS \(rssAfterWarmUp) KiB, then \(memoryAtEnd) at the end; messages: \(messages.isEmpty ? "none" : messages)"
    }

    /// `make soak INPUT=touch`: the same soak with real touches, on Xorg with the inputtest touch screen:
    /// taps, two fingers overlapping (the second down before the first lifts), slides from key to key, long
    /// touches and Globe switches over every keyboard type and layer, and hides. No screen resizes: the
    /// dummy video driver has the one mode it was started with.
    @Test(.enabled(if: taps > 0 && ProcessInfo.processInfo.environment["KEYPANE_SOAK_INPUT"] == "touch",
                   "make soak INPUT=touch"), .timeLimit(.minutes(60)))
    func randomTouchesArriveOnceAndOnlyOnce() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["KEYPANE_SOAK_SEED"] ?? "") ?? UInt64(time(nil))
        print("touch soak: \(Self.taps) touches, seed \(seed) (KEYPANE_SOAK_SEED repeats a run), \(Self.program)")
        var random = Fuzz(seed: seed)
        let session = try XSession(realInput: true)
        defer { session.stop() }
        let fingers = try #require(session.inputDevices)
        let keymapBefore = try session.keymapDump()
        let terminal = try Terminal(session: session)
        let types = ["default", "ascii", "numbers-punctuation", "url", "number-pad", "phone-pad", "name-phone-pad",
                     "email", "decimal-pad", "social", "web-search", "ascii-number-pad", "desktop"]
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", types.joined(separator: ","),
                                                                      "--no-suggestions"], program: Self.program)
        keyboard.extra = ["--no-suggestions", "--globe"]
        let socket = session.runtimeDirectory.appendingPathComponent("keypane-\(session.display.dropFirst()).socket").path
        func status() throws -> [String: String] {
            ControlEndToEndTests.fields(try ControlSocket.send(.status, to: socket))
        }
        func point(_ key: GeometryKey) -> (x: Int, y: Int) { (keyboard.frame.x + key.centre.0, keyboard.frame.y + key.centre.1) }
        var expected: [UInt8] = []
        var counts = (touches: 0, overlaps: 0, long: 0, slides: 0, hides: 0, globes: 0)
        var rssAfterWarmUp = 0
        let warmUp = min(500, Self.taps / 10)
        let start = Date()
        var id: UInt32 = 0
        func nextID() -> UInt32 { id += 1; return id }
        var index = -1
        while counts.touches < Self.taps {
            index += 1
            let begun = Date()
            if counts.touches == warmUp, rssAfterWarmUp == 0 {
                Self.rest()
                rssAfterWarmUp = Self.memory(keyboard.process.processIdentifier)
                print("touch soak: after \(warmUp) touches, \(Self.memoryLine(keyboard.process.processIdentifier))")
            }
            if index % 700 == 350 {
                _ = try ControlSocket.send(.hide, to: socket)
                _ = try ControlSocket.send(.show, to: socket)
                _ = waitUntil { session.window(classNamed: "keypane") != nil }
                usleep(100_000)
                counts.hides += 1
            }
            let now = try status()
            if now["visible"] != "yes" {
                _ = try ControlSocket.send(.show, to: socket)
                _ = waitUntil { session.window(classNamed: "keypane") != nil }
                usleep(100_000)
                continue
            }
            let geometry = try keyboard.geometry(type: now["type"] ?? "default", layer: now["layer"])
            let usable = geometry.keys.filter { Self.bytes(of: $0) != nil }
            let typing = usable.filter { !(Self.bytes(of: $0) ?? []).isEmpty && $0.text != nil }
            let choice = Int.random(in: 0..<100, using: &random)
            if choice < 4, let key = typing.randomElement(using: &random) {
                // A long touch, lifted where it began: the key's own character (none for the space bar, a
                // trackpad when held).
                let at = point(key), finger = nextID()
                fingers.touch(finger, .begin, x: at.x, y: at.y)
                usleep(700_000)
                fingers.touch(finger, .end, x: at.x, y: at.y)
                expected += key.text == " " ? [] : Self.bytes(of: key)!
                counts.long += 1
            } else if choice < 10, let from = typing.filter({ $0.text != " " }).randomElement(using: &random),
                      let to = typing.randomElement(using: &random) {
                // A slide from one key to another: the key lifted on types (from the space bar it moves the caret).
                fingers.slide(from: point(from), to: point(to), seconds: 0.1, steps: 4, id: nextID())
                expected += Self.bytes(of: to)!
                counts.slides += 1
            } else if choice < 30, now["shift"] == "off", let first = typing.randomElement(using: &random),
                      let second = typing.randomElement(using: &random) {
                // Two thumbs: the second finger lands while the first is still down; both type, in order.
                let a = point(first), b = point(second), one = nextID(), two = nextID()
                fingers.touch(one, .begin, x: a.x, y: a.y)
                usleep(30_000)
                fingers.touch(two, .begin, x: b.x, y: b.y)
                usleep(30_000)
                fingers.touch(one, .end, x: a.x, y: a.y)
                usleep(30_000)
                fingers.touch(two, .end, x: b.x, y: b.y)
                expected += Self.bytes(of: first)! + Self.bytes(of: second)!
                counts.overlaps += 1
            } else if let key = usable.randomElement(using: &random) {
                let target = choice < 34 ? (geometry.key(action: "globe") ?? key) : key
                let at = point(target)
                fingers.tap(x: at.x, y: at.y, hold: 0.03, id: nextID())
                expected += Self.bytes(of: target, shifted: now["shift"] == "on")!
                if target.action == "globe" { counts.globes += 1 }
            }
            counts.touches += 1
            let spent = Date().timeIntervalSince(begun)
            if spent < 0.05 { usleep(useconds_t((0.05 - spent) * 1_000_000)) }
            if index % 1000 == 0 {
                print("touch soak: \(index) rounds, \(counts.touches) touches, \(expected.count) bytes expected, \(terminal.bytes.count) arrived, \(Self.memoryLine(keyboard.process.processIdentifier))")
            }
        }
        let outcome = try Self.finish(terminal: terminal, expected: expected, keyboard: keyboard, session: session,
                                      keymapBefore: keymapBefore, rssAfterWarmUp: rssAfterWarmUp)
        print("touch soak: \(counts.touches) touches (\(counts.overlaps) overlapping pairs, \(counts.long) long, "
              + "\(counts.slides) slides, \(counts.globes) Globe taps, \(counts.hides) hides) in \(Int(Date().timeIntervalSince(start))) s; "
              + "\(outcome) (RSS after \(warmUp) touches first)")
    }
}
