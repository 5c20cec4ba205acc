import Foundation
import TestSupport
import Testing

/// Editing by touch on the live keyboard: the space bar as a trackpad (arrow keys into xterm's shell
/// line; in a GTK entry read back over the accessibility bus, with a selection cut and pasted by real
/// touches), a held delete by words, and text replacement; none of it in a password field.
@Suite(.serialized) struct EditingEndToEndTests {
    /// The mouse holds the space bar 0.4 s, then slides left `keys` key widths in 0.1-key steps every
    /// 25 ms (slowly: a character a third of a key), and lifts.
    static func trackpadLeft(_ keys: Double, keyboard: LiveKeyboard) throws {
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let space = try #require(letters.keys.first { $0.text == " " })
        let width = Double(try #require(letters.key(label: "q")).width) * 1.15
        let (x, y) = (keyboard.frame.x + space.centre.0, keyboard.frame.y + space.centre.1)
        keyboard.session.press(x: x, y: y)
        usleep(400_000)
        for step in 1...Int(keys * 10) {
            keyboard.session.move(x: x - Int(Double(step) * 0.1 * width), y: y)
            usleep(25_000)
        }
        keyboard.session.release()
        usleep(100_000)
    }

    @Test func theTrackpadSendsArrowsToTheShellLineAndTypesNothing() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try SuggestionsEndToEndTests.start(session)
        keyboard.extra = ["--no-globe"]
        try Self.trackpadLeft(2, keyboard: keyboard)
        let left = "\u{1b}[D"
        _ = waitUntil(timeout: 3) { String(decoding: terminal.bytes, as: UTF8.self).components(separatedBy: left).count > 3 }
        let arrived = String(decoding: terminal.bytes, as: UTF8.self)
        #expect(arrived.components(separatedBy: left).count - 1 >= 4, "\(arrived.debugDescription)")
        #expect(!arrived.contains(" "), "nothing typed: \(arrived.debugDescription)")
        _ = keyboard.terminate()
    }

    /// "omw" and space: "On my way! "; a delete right after brings "omw" back. Held, delete then goes
    /// by characters and then by words.
    @Test func aShortcutBecomesItsPhraseAndDeleteHeldGoesByWords() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try SuggestionsEndToEndTests.start(session, ["--autocapitalization", "none"])
        keyboard.extra = ["--no-globe"]
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        try tapText("omw", on: keyboard)
        _ = SuggestionsEndToEndTests.waitForBar(session) { $0.contains("[On my way!]") }
        try tapText(" ", on: keyboard)
        #expect(terminal.waitFor(text: "On my way! ") == "On my way! ")
        let delete = try #require(letters.keys.first { $0.keysym == "BackSpace" })
        keyboard.tap(delete)
        #expect(terminal.waitFor(text: "omw") == "omw")
        try tapText(" one two three four five six seven", on: keyboard)
        #expect(terminal.waitFor(text: "omw one two three four five six seven") == "omw one two three four five six seven")
        // Held 1.7 s: the press and ten repeats take 11 characters ("ix seven" and more), then words.
        keyboard.tap(delete, hold: 1.7)
        let left = terminal.waitFor(text: "omw one two three ", timeout: 3)
        #expect(["omw one two three four ", "omw one two three ", "omw one two "].contains(left), "\(left.debugDescription)")
        _ = keyboard.terminate()
    }

    /// A person on a touch-only screen: holds the space bar, slides the caret back into the second word,
    /// selects it with a second finger's double tap, cuts it, slides to the end and pastes it; the GTK
    /// entry's text is read back over the accessibility bus. In the password field, a held space bar is
    /// only a space.
    @Test func aWordCutAndPastedByTouchAlone() throws {
        let rig = try AutoShowRig(session: try XSession(realInput: true),
                                  arguments: ["--keyboards", "default", "--autocapitalization", "none"])
        defer { rig.stop() }
        let touch = try #require(rig.session.inputDevices)
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        let app = try FieldsWindow.focusedGtkEntry(session: rig.session, bus: rig.bus)
        #expect(rig.status(ManyApplicationsEndToEndTests.shown) == ManyApplicationsEndToEndTests.shown)
        _ = try rig.session.run(keypanePath, ["type", "one two three four"])
        #expect(app.waitFor("plain", "one two three four") == "one two three four")

        let keyboard = rig.keyboard
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let space = try #require(letters.keys.first { $0.text == " " })
        let width = Double(try #require(letters.key(label: "q")).width) * 1.15
        let (sx, sy) = (keyboard.frame.x + space.centre.0, keyboard.frame.y + space.centre.1)
        func tap(_ key: GeometryKey, id: UInt32 = 2) {
            touch.tap(x: keyboard.frame.x + key.centre.0, y: keyboard.frame.y + key.centre.1, hold: 0.05, id: id)
        }
        /// Finger 1 holds the space bar and slides `keys` key widths (left when negative), `step` keys every
        /// `interval` seconds, then stays down.
        func holdAndSlide(_ keys: Double, step: Double, interval: Double) {
            touch.touch(1, .begin, x: sx, y: sy)
            usleep(450_000)
            let steps = Int((abs(keys) / step).rounded())
            for index in 1...steps {
                touch.touch(1, .update, x: sx + Int(Double(index) * step * width * (keys < 0 ? -1 : 1)), y: sy)
                usleep(useconds_t(interval * 1_000_000))
            }
        }
        // Back twelve characters, slowly (a third of a key each): into "two".
        holdAndSlide(-4.4, step: 0.1, interval: 0.025)
        // A second finger's double tap selects the word; lifting the first offers cut, copy and paste.
        let p = try #require(letters.key(label: "p"))
        tap(p)
        usleep(100_000)
        tap(p)
        usleep(100_000)
        touch.touch(1, .end, x: sx - Int(4.4 * width), y: sy)
        // Nothing is on the clipboard yet: no paste.
        let bar = SuggestionsEndToEndTests.waitForBar(rig.session) { $0.prefix(2) == ["Cut", "Copy"] }
        #expect(bar == ["Cut", "Copy", ""])
        tap(try #require(letters.key(action: "suggestion:0")))
        #expect(app.waitFor("plain", "one  three four") == "one  three four")
        // To the end, fast, and paste.
        holdAndSlide(3, step: 0.5, interval: 0.01)
        touch.touch(1, .end, x: sx + Int(3 * width), y: sy)
        let paste = SuggestionsEndToEndTests.waitForBar(rig.session) { $0.last == "Paste" }
        #expect(paste.last == "Paste", "\(paste)")
        tap(try #require(letters.key(action: "suggestion:2")))
        #expect(app.waitFor("plain", "one  three fourtwo") == "one  three fourtwo")

        // A password field: the space bar held is a space, nothing more.
        rig.click(app.centres["password"]!)
        #expect(rig.status(ManyApplicationsEndToEndTests.secure) == ManyApplicationsEndToEndTests.secure)
        // Its keyboard has no bar: the space bar is as far from the keyboard's bottom as before.
        usleep(300_000)
        _ = keyboard.waitForFrame { _ in true }
        let fromBottom = letters.height - space.centre.1
        touch.tap(x: keyboard.frame.x + space.centre.0, y: keyboard.frame.y + keyboard.frame.height - fromBottom, hold: 0.6, id: 1)
        #expect(app.waitFor("password", " ", timeout: 3) == " ")
        rig.finish()
    }

    /// The mouse slides left from delete two words' worth in a GTK entry and lets go: exactly those two
    /// words go (the entry is read back over the accessibility bus).
    @Test func aSlideFromDeleteRemovesTwoWords() throws {
        let rig = try AutoShowRig(arguments: ["--keyboards", "default", "--autocapitalization", "none"])
        defer { rig.stop() }
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        let app = try FieldsWindow.focusedGtkEntry(session: rig.session, bus: rig.bus)
        #expect(rig.status(ManyApplicationsEndToEndTests.shown) == ManyApplicationsEndToEndTests.shown)
        try tapText("one two three four", on: rig.keyboard)
        #expect(app.waitFor("plain", "one two three four") == "one two three four")
        let letters = try rig.keyboard.geometry(type: "default", layer: "letters")
        let delete = try #require(letters.keys.first { $0.keysym == "BackSpace" })
        let width = Double(try #require(letters.key(label: "q")).width) * 1.15
        let (x, y) = (rig.keyboard.frame.x + delete.centre.0, rig.keyboard.frame.y + delete.centre.1)
        rig.session.press(x: x, y: y)
        for step in 1...8 {
            usleep(30_000)
            rig.session.move(x: x - Int(Double(step) * 0.2 * width), y: y)
        }
        usleep(100_000)
        rig.session.release()
        #expect(app.waitFor("plain", "one two ") == "one two ")
        rig.finish()
    }

    /// Where the field's caret can be set over the accessibility bus, the trackpad sets it: in a GTK
    /// entry that takes Left and Right for itself, a slide back three characters and a tap on x put the x
    /// inside the text (arrow keys would have left the caret at the end); a selection made by the trackpad
    /// is set the same way, and cut.
    @Test func theTrackpadSetsTheFieldsOwnCaret() throws {
        let rig = try AutoShowRig(arguments: ["--keyboards", "default", "--autocapitalization", "none"])
        defer { rig.stop() }
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        let app = try FieldsWindow(session: rig.session, environment: rig.bus.environment.merging(["KEYPANE_FIELDS_NO_ARROWS": "1"]) { $1 },
                                   script: "gtk-fields.py", widgets: 5,
                                   arguments: [rig.session.directory.appendingPathComponent("t.out").path])
        rig.session.tap(x: app.centres["plain"]!.x, y: app.centres["plain"]!.y)
        #expect(rig.status(ManyApplicationsEndToEndTests.shown) == ManyApplicationsEndToEndTests.shown)
        try tapText("one two", on: rig.keyboard)
        #expect(app.waitFor("plain", "one two") == "one two")
        usleep(300_000)
        // Three characters back: a slide of about a key (a character each 0.35 key).
        try Self.trackpad(keys: -1.1, keyboard: rig.keyboard)
        try tapText("x", on: rig.keyboard)
        #expect(app.waitFor("plain", "one xtwo") == "one xtwo")

        // Held still 0.9 s, the trackpad selects as it moves: to the end, then back over "two", over the
        // bus (Shift+Left would not reach this entry); Cut takes it.
        try Self.trackpad(keys: 1.1, keyboard: rig.keyboard)
        try Self.selectBack(1.1, keyboard: rig.keyboard)
        let letters = try rig.keyboard.geometry(type: "default", layer: "letters")
        let bar = SuggestionsEndToEndTests.waitForBar(rig.session) { $0.prefix(2) == ["Cut", "Copy"] }
        #expect(bar.prefix(2) == ["Cut", "Copy"], "\(bar)")
        rig.keyboard.tap(try #require(letters.key(action: "suggestion:0")), hold: 0.08)
        #expect(app.waitFor("plain", "one x") == "one x")
        rig.finish()
    }

    /// After the trackpad moved the caret in a Qt line edit, the bar offers undo and redo; paste too once
    /// another application holds text on the clipboard. Undo takes the typing back, redo brings it again,
    /// paste puts the other application's text in.
    @Test func theBarUndoesRedoesAndPastesTheClipboard() throws {
        let rig = try AutoShowRig(arguments: ["--keyboards", "default", "--autocapitalization", "none"])
        defer { rig.stop() }
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        let app = try FieldsWindow(session: rig.session, environment: rig.bus.environment, script: "qt-fields.py", widgets: 3)
        rig.click(app.centres["plain"]!)
        #expect(rig.status(ManyApplicationsEndToEndTests.shown) == ManyApplicationsEndToEndTests.shown)
        try tapText("one two", on: rig.keyboard)
        #expect(app.waitFor("plain", "one two") == "one two")
        let letters = try rig.keyboard.geometry(type: "default", layer: "letters")
        func slot(_ index: Int) throws -> GeometryKey { try #require(letters.key(action: "suggestion:\(index)")) }

        try Self.trackpad(keys: -0.7, keyboard: rig.keyboard)
        let bar = SuggestionsEndToEndTests.waitForBar(rig.session) { $0.prefix(2) == ["Undo", "Redo"] }
        #expect(bar == ["Undo", "Redo", ""])
        rig.keyboard.tap(try slot(0), hold: 0.08)
        #expect(waitUntil(timeout: 3) { app.text("plain").map { $0 != "one two" && "one two".hasPrefix($0) } == true },
                "\(app.text("plain") ?? "")")
        rig.keyboard.tap(try slot(1), hold: 0.08)
        #expect(app.waitFor("plain", "one two") == "one two")

        // Another application puts text on the clipboard: the next time, paste is offered.
        try Self.holdOnClipboard("elsewhere", session: rig.session)
        usleep(800_000)
        try Self.trackpad(keys: -0.7, keyboard: rig.keyboard)
        let pasting = SuggestionsEndToEndTests.waitForBar(rig.session) { $0 == ["Undo", "Redo", "Paste"] }
        #expect(pasting == ["Undo", "Redo", "Paste"])
        rig.keyboard.tap(try slot(2), hold: 0.08)
        #expect(waitUntil(timeout: 3) { app.text("plain")?.contains("elsewhere") == true }, "\(app.text("plain") ?? "")")
        rig.finish()
    }

    /// A terminal (GTK's VTE) focused: its keyboard's bar offers Copy, and Paste while another application
    /// holds text on the clipboard; Paste sends Ctrl+Shift+V, which the terminal takes.
    @Test func aTerminalsBarPastesTheClipboard() throws {
        let rig = try AutoShowRig(arguments: ["--keyboards", "default", "--autocapitalization", "none"])
        defer { rig.stop() }
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        try Self.holdOnClipboard("elsewhere", session: rig.session)
        let typed = rig.session.directory.appendingPathComponent("t.out")
        let app = try FieldsWindow(session: rig.session, environment: rig.bus.environment, script: "gtk-fields.py", widgets: 5,
                                   arguments: [typed.path])
        usleep(500_000)
        rig.click(app.centres["terminal"]!)
        #expect(rig.status(["visible": "yes", "type": "desktop"]) == ["visible": "yes", "type": "desktop"])
        let bar = SuggestionsEndToEndTests.waitForBar(rig.session) { $0 == ["", "Copy", "Paste"] }
        #expect(bar == ["", "Copy", "Paste"])
        rig.keyboard.extra += ["--terminal"]
        let desktop = try rig.keyboard.geometry(type: "desktop", layer: nil)
        rig.keyboard.tap(try #require(desktop.key(action: "suggestion:2")), hold: 0.08)
        #expect(waitUntil(timeout: 3) { ((try? String(contentsOf: typed, encoding: .utf8)) ?? "").contains("elsewhere") })
        rig.finish()
    }

    /// The mouse holds the space bar, then moves `rows` rows (up when negative) and `keys` key widths
    /// (left when negative) in small, slow steps, and lets go.
    static func trackpad(rows: Double = 0, keys: Double = 0, keyboard: LiveKeyboard) throws {
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let space = try #require(letters.keys.first { $0.text == " " })
        let q = try #require(letters.key(label: "q")), a = try #require(letters.key(label: "a"))
        let width = Double(q.width) * 1.15, pitch = Double(a.centre.1 - q.centre.1)
        let (x, y) = (keyboard.frame.x + space.centre.0, keyboard.frame.y + space.centre.1)
        keyboard.session.press(x: x, y: y)
        usleep(400_000)
        let steps = 10
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            keyboard.session.move(x: x + Int(keys * width * t), y: y + Int(rows * pitch * t))
            usleep(40_000)
        }
        keyboard.session.release()
        usleep(150_000)
    }

    /// In GTK's multi-line text view the trackpad moves the caret a line up.
    @Test func theTrackpadMovesALineUpInATextView() throws {
        let rig = try AutoShowRig(arguments: ["--keyboards", "default", "--autocapitalization", "none"])
        defer { rig.stop() }
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        let app = try FieldsWindow.focusedGtkEntry(session: rig.session, bus: rig.bus)
        rig.click(app.centres["multiline"]!)
        #expect(rig.status(ManyApplicationsEndToEndTests.shown) == ManyApplicationsEndToEndTests.shown)
        let letters = try rig.keyboard.geometry(type: "default", layer: "letters")
        let returnKey = try #require(letters.keys.first { $0.keysym == "Return" })
        try tapText("line one", on: rig.keyboard)
        rig.keyboard.tap(returnKey)
        try tapText("line two", on: rig.keyboard)
        #expect(app.waitFor("multiline", "line one\nline two") == "line one\nline two")
        try Self.trackpad(rows: -1.1, keyboard: rig.keyboard)
        try tapText("x", on: rig.keyboard)
        #expect(app.waitFor("multiline", "line onex\nline two") == "line onex\nline two")
        rig.finish()
    }

    /// In Firefox's textarea the trackpad moves the caret two characters back; the page puts the text in
    /// the window's title.
    @Test func theTrackpadMovesTheCaretInFirefox() throws {
        let rig = try AutoShowRig(arguments: ["--keyboards", "default", "--autocapitalization", "none"])
        defer { rig.stop() }
        try AutoShowEndToEndTests.startFirefox(rig)
        let textarea = (x: 170, y: 385), button = (x: 170, y: 435)
        var ready = false
        for _ in 0..<30 where !ready {
            rig.click(button)
            ready = rig.status(["visible": "no"], timeout: 1) == ["visible": "no"]
        }
        #expect(ready, "the keyboard did not hide for the browser's button")
        usleep(1_500_000)
        rig.click(textarea)
        if rig.status(ManyApplicationsEndToEndTests.shown, timeout: 3) != ManyApplicationsEndToEndTests.shown { rig.click(textarea) }
        #expect(rig.status(ManyApplicationsEndToEndTests.shown) == ManyApplicationsEndToEndTests.shown)
        usleep(200_000)
        try tapText("abcd", on: rig.keyboard)
        var title = ""
        _ = waitUntil { title = rig.session.title(of: "Navigator") ?? ""; return title.hasPrefix("textarea=abcd") }
        #expect(title.hasPrefix("textarea=abcd"), "\(title)")
        // Two characters back: a key width and a bit, slowly (a character a third of a key).
        try Self.trackpad(keys: -0.8, keyboard: rig.keyboard)
        try tapText("x", on: rig.keyboard)
        _ = waitUntil { title = rig.session.title(of: "Navigator") ?? ""; return title.hasPrefix("textarea=abxcd") }
        #expect(title.hasPrefix("textarea=abxcd"), "\(title)")
        // Held still first, it selects as it moves: "bx", which Cut takes.
        try Self.selectBack(0.8, keyboard: rig.keyboard)
        let letters = try rig.keyboard.geometry(type: "default", layer: "letters")
        _ = SuggestionsEndToEndTests.waitForBar(rig.session) { $0.prefix(2) == ["Cut", "Copy"] }
        rig.keyboard.tap(try #require(letters.key(action: "suggestion:0")), hold: 0.08)
        _ = waitUntil { title = rig.session.title(of: "Navigator") ?? ""; return title.hasPrefix("textarea=acd") }
        #expect(title.hasPrefix("textarea=acd"), "\(title)")
        rig.finish()
    }

    /// Another application (a GTK program of a few lines) puts `text` on the clipboard and keeps it there.
    static func holdOnClipboard(_ text: String, session: XSession) throws {
        _ = try session.start("/usr/bin/python3", ["-c", """
            import sys
            import gi
            gi.require_version("Gtk", "3.0")
            from gi.repository import Gdk, Gtk
            Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD).set_text(sys.argv[1], -1)
            Gtk.main()
            """, text])
    }

    /// The mouse holds the space bar still 0.9 s (the trackpad then selects), slides `keys` key widths
    /// left in ten slow steps, and lets go.
    static func selectBack(_ keys: Double, keyboard: LiveKeyboard) throws {
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let space = try #require(letters.keys.first { $0.text == " " })
        let width = Double(try #require(letters.key(label: "q")).width) * 1.15
        let (x, y) = (keyboard.frame.x + space.centre.0, keyboard.frame.y + space.centre.1)
        keyboard.session.press(x: x, y: y)
        usleep(900_000)
        for step in 1...10 {
            keyboard.session.move(x: x - Int(keys * width * Double(step) / 10), y: y)
            usleep(40_000)
        }
        keyboard.session.release()
    }
}
