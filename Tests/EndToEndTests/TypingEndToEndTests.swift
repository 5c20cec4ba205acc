import CX11
import Foundation
import Testing

let allTypes = ["default", "ascii", "numbers-punctuation", "url", "number-pad", "phone-pad", "name-phone-pad",
                "email", "decimal-pad", "social", "web-search", "ascii-number-pad", "desktop"]

/// Taps every key that types text on every layer of a keyboard and returns what should have arrived.
/// Layers are reached with their layer keys; the shifted layer with a shift tap before each key.
func tapEveryTextKey(_ keyboard: LiveKeyboard, type: String) throws -> String {
    let first = try keyboard.geometry(type: type, layer: nil)
    var current = first.layer
    var expected = ""

    func navigate(to target: String) throws {
        // Breadth first over the layer keys.
        var paths: [String: [String]] = [current: []]
        var queue = [current]
        while !queue.isEmpty, paths[target] == nil {
            let layer = queue.removeFirst()
            for key in try keyboard.geometry(type: type, layer: layer).keys {
                guard let action = key.action, action.hasPrefix("layer:") else { continue }
                let next = String(action.dropFirst(6))
                if paths[next] == nil {
                    paths[next] = paths[layer]! + [next]
                    queue.append(next)
                }
            }
        }
        guard let path = paths[target] else { throw TestFailure("\(type): no way from \(current) to \(target)") }
        for next in path {
            let here = try keyboard.geometry(type: type, layer: current)
            keyboard.tap(here.key(action: "layer:\(next)")!)
            current = next
        }
    }

    for layer in first.layers {
        if layer == "shifted" {
            try navigate(to: "letters")
            let letters = try keyboard.geometry(type: type, layer: "letters")
            let shift = letters.key(action: "shift")!
            for key in try keyboard.geometry(type: type, layer: "shifted").keys {
                guard let text = key.text else { continue }
                keyboard.tap(shift)
                keyboard.tap(key)
                expected += text
            }
            continue
        }
        try navigate(to: layer)
        for key in try keyboard.geometry(type: type, layer: layer).keys {
            guard let text = key.text else { continue }
            keyboard.tap(key)
            expected += text
        }
    }
    return expected
}

func expectArrived(_ terminal: Terminal, _ expected: String, _ what: String) {
    let wanted = Data(expected.utf8)
    let arrived = terminal.waitFor(count: wanted.count)
    if arrived != wanted {
        let got = String(decoding: arrived, as: UTF8.self)
        let common = zip(got, expected).prefix { $0 == $1 }.count
        Issue.record("\(what): arrived \(arrived.count) bytes, expected \(wanted.count); first difference at character \(common): got \(got.dropFirst(common).prefix(20).debugDescription), expected \(expected.dropFirst(common).prefix(20).debugDescription)")
    }
}

/// zenity's entry dialog, a GTK text field, with the focus; what it prints once Return confirms it.
struct ZenityEntry {
    let process: Process
    let output = Pipe()

    init(session: XSession) throws {
        process = try session.start("/usr/bin/zenity", ["--entry", "--title", "Keypane test"],
                                    stdout: output.fileHandleForWriting, environment: ["GTK_A11Y": "none", "NO_AT_BRIDGE": "1"])
        var entry: UInt?
        guard waitUntil({ entry = session.window(classNamed: "zenity"); return entry != nil }), let entry,
              waitUntil({ session.focusedWindowFamily().contains(entry) }) else {
            throw TestFailure("zenity did not appear with focus")
        }
        usleep(500_000)
    }

    /// What zenity printed when it ended, or "" if it did not end.
    func confirmed() -> String {
        guard waitUntil({ !process.isRunning }) else { return "" }
        try? output.fileHandleForWriting.close()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}

@Suite(.serialized) struct TypingEndToEndTests {
    /// Every key of every layer of every keyboard type, in both width classes, arrives in xterm as typed.
    @Test(arguments: [(1280, 800), (600, 900)])
    func everyKeyOfEveryTypeReachesTheTerminal(size: (Int, Int)) throws {
        let session = try XSession(width: size.0, height: size.1)
        defer { session.stop() }
        let keymapBefore = try session.keymapDump()
        let terminal = try Terminal(session: session)
        for type in allTypes {
            // One key in one of some hundred runs of ~2,000 taps went missing under CI load (not yet
            // explained, see the issue notes); a type is tried a second time, and a second miss fails.
            for attempt in 1...2 {
                let keyboard = try LiveKeyboard(session: session, arguments: ["--type", type, "--height", "320"])
                #expect(keyboard.frame.width == size.0 && keyboard.frame.y + keyboard.frame.height == size.1)
                let before = terminal.bytes.count
                let expected = try tapEveryTextKey(keyboard, type: type)
                let arrived = String(decoding: terminal.waitFor(count: before + expected.utf8.count).dropFirst(before),
                                     as: UTF8.self)
                // Focus stayed with the terminal the whole time.
                let focus = session.focusedWindowFamily()
                #expect(focus.contains(terminal.window) && !focus.contains(keyboard.window), "\(type): focus moved")
                let (status, _) = keyboard.terminate()
                #expect(status == 0)
                if arrived == expected { break }
                if attempt == 1 {
                    print("everyKey: \(type) at \(size.0)x\(size.1): first attempt got \(arrived.debugDescription), expected \(expected.debugDescription); trying again")
                    continue
                }
                #expect(arrived == expected, "\(type) at \(size.0)x\(size.1)")
            }
        }
        #expect(try session.keymapDump() == keymapBefore, "the keymap changed")
        #expect(session.keysDown().isEmpty)
    }

    /// Keys without a character send their keysym: xterm turns them into its escape sequences.
    @Test func keysymKeysSendTheirKeys() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--type", "desktop", "--height", "360"])
        let letters = try keyboard.geometry(type: "desktop", layer: "letters")
        let expected: [(String, String)] = [("esc", "\u{1B}"), ("tab", "\t"), ("return", "\r"), ("delete", "\u{7F}"),
                                            ("←", "\u{1B}[D"), ("↑", "\u{1B}[A"), ("F1", "\u{1B}OP"), ("F5", "\u{1B}[15~")]
        for (label, _) in expected { keyboard.tap(letters.key(label: label)!) }
        // Ctrl latched for one key: ctrl, c is ^C (raw mode passes it through as a byte).
        keyboard.tap(letters.key(label: "ctrl")!)
        keyboard.tap(letters.key(label: "c")!)
        keyboard.tap(letters.key(label: "c")!)
        // Ctrl and Shift latched together: ctrl, shift, a is Ctrl+Shift+A, which xterm sends as ^A.
        keyboard.tap(letters.key(label: "ctrl")!)
        keyboard.tap(letters.key(action: "shift")!)
        keyboard.tap(letters.key(label: "a")!)
        expectArrived(terminal, expected.map(\.1).joined() + "\u{03}c\u{01}", "keysyms")
        _ = keyboard.terminate()
    }

    /// A modifier locked by a double tap holds for every key until a third tap: in a GTK entry (zenity's),
    /// ctrl locked, a selects all and x cuts it; ctrl let go, z types z, and Return confirms "z". Nothing is
    /// left pressed.
    @Test func aLockedModifierHoldsUntilTappedAgain() throws {
        let session = try XSession()
        defer { session.stop() }
        let entry = try ZenityEntry(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--type", "desktop", "--height", "360"])
        let letters = try keyboard.geometry(type: "desktop", layer: "letters")
        for label in ["a", "b", "c", "ctrl", "ctrl", "a", "x", "ctrl", "z", "return"] {
            keyboard.tap(try #require(letters.key(label: label), "\(label)"))
        }
        #expect(entry.confirmed() == "z\n")
        #expect(session.keysDown().isEmpty)
        _ = keyboard.terminate()
        #expect(session.keysDown().isEmpty)
    }

    /// Under German and Russian keymaps, and a second group, the labels still decide the characters;
    /// a keymap change while running is picked up at once.
    @Test func labelsWinOverTheKeymap() throws {
        let session = try XSession()
        defer { session.stop() }
        let keymapBefore = try session.keymapDump()
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--type", "default", "--height", "320"])
        var expected = ""
        for layout in ["de", "ru", "fr"] {
            #expect(try session.run("/usr/bin/setxkbmap", [layout]).status == 0)
            expected += try tapEveryTextKey(keyboard, type: "default")
            expectArrived(terminal, expected, "default keyboard under \(layout)")
            keyboard.tap(try keyboard.geometry(type: "default", layer: "symbols").key(action: "layer:letters")!)
        }
        // Two groups, the second (German) active.
        #expect(try session.run("/usr/bin/setxkbmap", ["-layout", "us,de"]).status == 0)
        XkbLockGroup(session.connection, UInt32(XkbUseCoreKbd), 1)
        XSync(session.connection, 0)
        usleep(100_000)
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        for label in ["y", "z", "q"] { keyboard.tap(letters.key(label: label)!) }
        expected += "yzq"
        expectArrived(terminal, expected, "us,de with de active")
        _ = keyboard.terminate()
        #expect(try session.run("/usr/bin/setxkbmap", ["us"]).status == 0)
        #expect(try session.keymapDump() == keymapBefore)
    }

    /// setxkbmap between two taps, with no pause: the next tap types its label under the new keymap (y and z
    /// trade places in German, a and q in French, every letter moves in Russian), and after a change to a
    /// keymap with no Latin letters at all. Each letter is let arrive before the next setxkbmap: a letter
    /// typed on a spare keycode (w under Russian, m under Greek) is looked up by xterm's Xlib in the keymap
    /// the server has when xterm gets to it, so a keymap replaced in the meantime would lose it in xterm,
    /// whatever the keyboard did (seen once under CI load).
    @Test func aKeymapChangedBetweenTwoTapsTypesTheRightCharacter() throws {
        let session = try XSession()
        defer { session.stop() }
        let keymapBefore = try session.keymapDump()
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--type", "default", "--height", "320"])
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        var expected = ""
        for (layout, label) in [("us", "y"), ("de", "y"), ("de", "z"), ("fr", "a"), ("fr", "q"), ("ru", "w"),
                                ("us", "q"), ("gr", "m"), ("us", "z")] {
            #expect(try session.run("/usr/bin/setxkbmap", [layout]).status == 0)
            keyboard.tap(try #require(letters.key(label: label)))
            expected += label
            expectArrived(terminal, expected, "\(label) tapped right after setxkbmap \(layout)")
        }
        _ = keyboard.terminate()
        #expect(try session.keymapDump() == keymapBefore)
    }

    /// Accented letters from a held key, and characters no key of the keymap has, through spare keycodes.
    @Test func heldKeysAndSpareKeycodes() throws {
        let session = try XSession()
        defer { session.stop() }
        let keymapBefore = try session.keymapDump()
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--height", "320"])
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        // Hold e, slide to the third alternate (é), release.
        keyboard.holdAndChoose(letters.key(label: "e")!, alternate: 2)
        expectArrived(terminal, "é", "held e")
        // € £ ¥ • from the symbols layer, twice, then the ring wraps with more spare characters.
        keyboard.tap(letters.key(action: "layer:numbers")!)
        let numbers = try keyboard.geometry(type: "default", layer: "numbers")
        keyboard.tap(numbers.key(action: "layer:symbols")!)
        let symbols = try keyboard.geometry(type: "default", layer: "symbols")
        var expected = "é"
        for _ in 0..<2 {
            for label in ["€", "£", "¥", "•", "§", "…"] where symbols.key(label: label) != nil {
                keyboard.tap(symbols.key(label: label)!)
                expected += label
            }
        }
        expectArrived(terminal, expected, "spare keycodes")
        let (status, _) = keyboard.terminate()
        #expect(status == 0)
        #expect(try session.keymapDump() == keymapBefore, "spare keycodes were not given back")
    }

    /// SIGTERM with shift latched: no key stays down and the keymap is as before.
    @Test func terminationLeavesNothingBehind() throws {
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            let session = try XSession()
            defer { session.stop() }
            let keymapBefore = try session.keymapDump()
            let terminal = try Terminal(session: session)
            let keyboard = try LiveKeyboard(session: session, arguments: ["--height", "320"])
            let symbols = try keyboard.geometry(type: "default", layer: "symbols")
            let letters = try keyboard.geometry(type: "default", layer: "letters")
            keyboard.tap(letters.key(action: "layer:numbers")!)
            keyboard.tap(try keyboard.geometry(type: "default", layer: "numbers").key(action: "layer:symbols")!)
            keyboard.tap(symbols.key(label: "€")!)
            keyboard.tap(symbols.key(action: "layer:letters")!)
            keyboard.tap(letters.key(action: "shift")!)
            expectArrived(terminal, "€", "before \(signal)")
            let (status, message) = keyboard.terminate(signal)
            #expect(status == 0, "\(message)")
            #expect(session.keysDown().isEmpty)
            #expect(try session.keymapDump() == keymapBefore)
        }
    }

    /// SIGKILL while spare keycodes hold € and £: they stay mapped (nothing can run at a kill), and the
    /// next start empties them, says so in one line, and types with a clean ring; its own exit then
    /// leaves the keymap as it was before the first start.
    @Test func aStartAfterAKillEmptiesTheSpareKeycodesLeftBehind() throws {
        let session = try XSession()
        defer { session.stop() }
        let keymapBefore = try session.keymapDump()
        let terminal = try Terminal(session: session)
        let first = try LiveKeyboard(session: session, arguments: ["--height", "320"])
        first.tap(try first.geometry(type: "default", layer: "letters").key(action: "layer:numbers")!)
        first.tap(try first.geometry(type: "default", layer: "numbers").key(action: "layer:symbols")!)
        let symbols = try first.geometry(type: "default", layer: "symbols")
        for label in ["€", "£"] { first.tap(symbols.key(label: label)!) }
        expectArrived(terminal, "€£", "before the kill")
        _ = first.terminate(SIGKILL)
        let leftBehind = try session.keymapDump()
        #expect(leftBehind != keymapBefore, "the killed keyboard's spare keycodes should still be mapped")
        #expect(leftBehind.contains("EuroSign"))

        let second = try LiveKeyboard(session: session, arguments: ["--height", "320"])
        #expect(waitUntil { try! session.keymapDump() == keymapBefore }, "the next start did not empty them")
        second.tap(try second.geometry(type: "default", layer: "letters").key(action: "layer:numbers")!)
        second.tap(try second.geometry(type: "default", layer: "numbers").key(action: "layer:symbols")!)
        second.tap(try second.geometry(type: "default", layer: "symbols").key(label: "¥")!)
        expectArrived(terminal, "€£¥", "after the restart")
        let (status, message) = second.terminate()
        #expect(status == 0)
        #expect(message.contains("keypane: emptied 2 spare keycodes that a keyboard stopped without clean-up"), "\(message)")
        #expect(try session.keymapDump() == keymapBefore)
    }

    /// KEYPANE_TRACE=1 times the start-up's steps on stderr: the first frame is out, and on screen, before
    /// the keymap is read, the sound thread starts and the suggestions start, and each line says milliseconds since the
    /// start. libcanberra is no library the program is linked with: the sound thread opens it; nor are
    /// libatspi and libdbus.
    @Test func theTraceTimesTheStartUpSteps() throws {
        let session = try XSession()
        defer { session.stop() }
        // With sound on (no sound server here: the thread says so and typing goes on), for its step.
        let keyboard = try LiveKeyboard(session: session, arguments: ["--height", "320"],
                                        environment: ["KEYPANE_TRACE": "1"], sound: true)
        let (status, message) = keyboard.terminate()
        #expect(status == 0)
        let steps = message.split(separator: "\n").filter { $0.hasPrefix("keypane: trace: ") }
            .map { line -> (Double, String) in
                let parts = line.dropFirst("keypane: trace: ".count).split(separator: " ", maxSplits: 3)
                return (Double(parts[0]) ?? -1, String(parts.count > 3 ? parts[3] : ""))
            }
        let names = steps.map(\.1)
        let frame = try #require(names.firstIndex(of: "first frame drawn and flushed"), "\(message)")
        let keymap = try #require(names.firstIndex(of: "keymap read"), "\(message)")
        let suggestions = try #require(names.firstIndex(of: "suggestions started"), "\(message)")
        #expect(names.first == "main")
        let sound = try #require(names.firstIndex(of: "sound thread started"), "\(message)")
        // The frame is on screen (the server's first Expose answered) before the rest of start-up runs.
        let shown = try #require(names.firstIndex(of: "first frame on screen"), "\(message)")
        #expect(frame < shown && shown < keymap && keymap < suggestions && frame < sound)
        let linked = try session.run("/usr/bin/readelf", ["-d", keypanePath]).output
        #expect(linked.contains("libX11") && !linked.contains("libcanberra"), "\(linked)")
        // Nor the accessibility bus's: they are opened when the keyboard first follows the focus.
        #expect(!linked.contains("libatspi") && !linked.contains("libdbus"), "\(linked)")
        #expect(steps.allSatisfy { $0.0 >= 0 }, "\(message)")
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.0 <= $1.0 }, "times go forward: \(message)")
        // Without the variable, nothing is printed.
        let quiet = try LiveKeyboard(session: session, arguments: ["--height", "320"])
        #expect(!quiet.terminate().1.contains("trace"))
    }

    /// A lost X server ends keypane with one line and status 1, never a crash (so no core file), whether
    /// it was idle, in the middle of a tap (a letter held, its balloon up) or repeating a held delete key.
    @Test(arguments: ["idle", "letter held", "delete repeating"])
    func losingTheServerIsOneLine(during moment: String) throws {
        let session = try XSession()
        defer { session.stop() }
        let keyboard = try LiveKeyboard(session: session, arguments: ["--height", "320"])
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let held: GeometryKey? = switch moment {
        case "letter held": letters.key(label: "g")
        case "delete repeating": letters.keys.first { $0.keysym == "BackSpace" }
        default: nil
        }
        if let held {
            let (x, y) = held.centre
            session.press(x: keyboard.frame.x + x, y: keyboard.frame.y + y)
            usleep(moment == "delete repeating" ? 900_000 : 100_000)
        }
        session.killServer()
        keyboard.process.waitUntilExit()
        try? keyboard.stderr.fileHandleForWriting.close()
        let message = String(decoding: keyboard.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(keyboard.process.terminationReason == .exit, "\(moment): ended by a signal, not an exit")
        #expect(keyboard.process.terminationStatus == 1, "\(moment)")
        #expect(message == "keypane: lost the connection to the X server\n", "\(moment)")
    }
}

@Suite struct GTKEndToEndTests {
    /// A GTK text field (zenity's entry) receives letters, shifted letters, punctuation, digits, a spare
    /// character and an accented letter; Return confirms it and zenity prints what the field holds ("Hi, 3€ éte").
    @Test func typesIntoAGTKTextField() throws {
        let session = try XSession()
        defer { session.stop() }
        let entry = try ZenityEntry(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--height", "320"])
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let shifted = try keyboard.geometry(type: "default", layer: "shifted")
        let numbers = try keyboard.geometry(type: "default", layer: "numbers")
        let symbols = try keyboard.geometry(type: "default", layer: "symbols")
        keyboard.tap(letters.key(action: "shift")!)
        keyboard.tap(shifted.key(label: "H")!)
        for label in ["i", ",", " "] { keyboard.tap(letters.keys.first { $0.text == label }!) }
        keyboard.tap(letters.key(action: "layer:numbers")!)
        keyboard.tap(numbers.key(label: "3")!)
        keyboard.tap(numbers.key(action: "layer:symbols")!)
        keyboard.tap(symbols.key(label: "€")!)
        keyboard.tap(symbols.key(action: "layer:letters")!)
        keyboard.tap(letters.keys.first { $0.text == " " }!)
        // Hold e and slide to é, the third cell of the alternates.
        keyboard.holdAndChoose(letters.key(label: "e")!, alternate: 2)
        keyboard.tap(letters.key(label: "t")!)
        keyboard.tap(letters.key(label: "e")!)
        keyboard.tap(letters.key(label: "return")!)
        #expect(entry.confirmed() == "Hi, 3€ éte\n")
        #expect(!session.focusedWindowFamily().contains(keyboard.window))
        _ = keyboard.terminate()
    }
}
