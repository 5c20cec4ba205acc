import Foundation
import Testing

/// The keyboard follows the focus across applications and toolkits open together, in any order: a click
/// into a field of one after a button of another, Alt+Tab between them, a window closing under the focus.
@Suite(.serialized) struct ManyApplicationsEndToEndTests {
    /// A GTK 3 and a Qt 5 window open on one accessibility bus, side by side.
    struct Windows {
        let gtk: FieldsWindow
        let qt: FieldsWindow

        init(_ rig: AutoShowRig) throws {
            #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
            gtk = try FieldsWindow(session: rig.session, environment: rig.bus.environment.merging(["KEYPANE_FIELDS_AT": "0,0"]) { $1 },
                                   script: "gtk-fields.py", widgets: 5,
                                   arguments: [rig.session.directory.appendingPathComponent("t.out").path])
            qt = try FieldsWindow(session: rig.session, environment: rig.bus.environment.merging(["KEYPANE_FIELDS_AT": "600,0"]) { $1 },
                                  script: "qt-fields.py", widgets: 3)
        }
    }

    /// Gives xterm the focus, taps `text` (letters) at a person's pace, each once the last has arrived, and
    /// returns the longest a tap took to arrive.
    static func tapIntoTerminal(_ text: String, rig: AutoShowRig, terminal: Terminal) throws -> Double {
        rig.session.activate(terminal.window)
        #expect(waitUntil { rig.session.focusedWindowFamily().contains(terminal.window) })
        let letters = try rig.keyboard.geometry(type: "default", layer: "letters")
        var slowest = 0.0
        var count = terminal.bytes.count
        for letter in text {
            let started = Date()
            rig.keyboard.tap(try #require(letters.key(label: String(letter))))
            count += String(letter).utf8.count
            _ = waitUntil(timeout: 5) { terminal.bytes.count >= count }
            slowest = max(slowest, Date().timeIntervalSince(started))
            usleep(70_000)
        }
        return slowest
    }

    static let shown = ["visible": "yes", "secure": "no"]
    static let secure = ["visible": "yes", "secure": "yes"]
    static let hidden = ["visible": "no"]

    /// GTK first, then Qt (the order that lost Qt), then back, twice; and typing lands in each.
    @Test func gtkThenQtThenGtk() throws {
        let rig = try AutoShowRig()
        defer { rig.stop() }
        let windows = try Windows(rig)
        for round in 0..<2 {
            rig.click(windows.gtk.centres["plain"]!)
            #expect(rig.status(Self.shown) == Self.shown, "GTK entry, round \(round)")
            rig.click(windows.gtk.centres["button"]!)
            #expect(rig.status(Self.hidden) == Self.hidden, "GTK button, round \(round)")
            rig.click(windows.qt.centres["plain"]!)
            #expect(rig.status(Self.shown) == Self.shown, "Qt line edit after GTK, round \(round)")
            rig.click(windows.qt.centres["button"]!)
            #expect(rig.status(Self.hidden) == Self.hidden, "Qt button, round \(round)")
            rig.click(windows.qt.centres["password"]!)
            #expect(rig.status(Self.secure) == Self.secure, "Qt password, round \(round)")
            rig.click(windows.gtk.centres["password"]!)
            #expect(rig.status(Self.secure) == Self.secure, "GTK password after Qt, round \(round)")
        }
        rig.click(windows.qt.centres["plain"]!)
        #expect(rig.status(Self.shown) == Self.shown)
        try tapText("qt", on: rig.keyboard)
        #expect(windows.qt.waitFor("plain", "Qt") == "Qt")
        rig.click(windows.gtk.centres["plain"]!)
        #expect(rig.status(Self.shown) == Self.shown)
        try tapText("gtk", on: rig.keyboard)
        #expect(windows.gtk.waitFor("plain", "Gtk") == "Gtk")
        rig.finish()
    }

    /// A Qt window started after a GTK window had the focus (the case that was lost): its line edit shows
    /// the keyboard, twice.
    @Test func aQtWindowStartedAfterGtkIsFollowed() throws {
        let rig = try AutoShowRig()
        defer { rig.stop() }
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        let gtk = try FieldsWindow(session: rig.session, environment: rig.bus.environment, script: "gtk-fields.py",
                                   widgets: 5, arguments: [rig.session.directory.appendingPathComponent("t.out").path])
        rig.click(gtk.centres["plain"]!)
        #expect(rig.status(Self.shown) == Self.shown, "GTK entry")
        rig.click(gtk.centres["button"]!)
        #expect(rig.status(Self.hidden) == Self.hidden, "GTK button")
        // Over the GTK window, as a new window opens.
        let qt = try FieldsWindow(session: rig.session, environment: rig.bus.environment, script: "qt-fields.py", widgets: 3)
        for round in 0..<2 {
            rig.click(qt.centres["plain"]!)
            #expect(rig.status(Self.shown) == Self.shown, "Qt line edit after GTK, round \(round)")
            rig.click(qt.centres["button"]!)
            #expect(rig.status(Self.hidden) == Self.hidden, "Qt button, round \(round)")
        }
        rig.finish()
    }

    /// Qt first, then GTK, then Qt.
    @Test func qtThenGtkThenQt() throws {
        let rig = try AutoShowRig()
        defer { rig.stop() }
        let windows = try Windows(rig)
        rig.click(windows.qt.centres["plain"]!)
        #expect(rig.status(Self.shown) == Self.shown, "Qt line edit")
        rig.click(windows.qt.centres["button"]!)
        #expect(rig.status(Self.hidden) == Self.hidden, "Qt button")
        rig.click(windows.gtk.centres["plain"]!)
        #expect(rig.status(Self.shown) == Self.shown, "GTK entry after Qt")
        rig.click(windows.gtk.centres["button"]!)
        #expect(rig.status(Self.hidden) == Self.hidden, "GTK button")
        rig.click(windows.qt.centres["plain"]!)
        #expect(rig.status(Self.shown) == Self.shown, "Qt line edit after GTK")
        rig.finish()
    }

    /// Alt+Tab from a GTK field to a Qt field and back: each window's focused field brings the keyboard
    /// back with its traits; closing the Qt window gives the focus back to GTK's field.
    @Test func altTabAndAClosingWindow() throws {
        let rig = try AutoShowRig()
        defer { rig.stop() }
        let windows = try Windows(rig)
        rig.click(windows.qt.centres["password"]!)
        #expect(rig.status(Self.secure) == Self.secure, "Qt password")
        rig.click(windows.gtk.centres["plain"]!)
        #expect(rig.status(Self.shown) == Self.shown, "GTK entry")
        /// Alt+Tab until the window titled `title` has the focus, as a person does who sees where it went.
        func altTab(to title: String) {
            for _ in 0..<3 {
                rig.session.altTab()
                if waitUntil(timeout: 2, { rig.session.focusedWindowFamily().contains { rig.session.title(of: $0) == title } }) { return }
            }
            Issue.record("Alt+Tab did not bring \(title)")
        }
        altTab(to: "Keypane Qt fields")
        #expect(rig.status(Self.secure) == Self.secure, "Qt password by Alt+Tab")
        altTab(to: "Keypane fields")
        #expect(rig.status(Self.shown) == Self.shown, "GTK entry by Alt+Tab")
        altTab(to: "Keypane Qt fields")
        #expect(rig.status(Self.secure) == Self.secure, "Qt password by Alt+Tab again")
        stopProcess(windows.qt.process)
        #expect(rig.status(Self.shown) == Self.shown, "GTK entry once the Qt window closed")
        rig.finish()
    }

    /// A GTK application that stops answering (SIGSTOP) just after a key typed into its entry, while the
    /// keyboard is about to read the entry's text: fifty taps into xterm all arrive, each as soon as usual
    /// (the reads wait for the application without holding the keyboard up; each took up to twice the
    /// bus's 0.5 s time-out before); once it answers again, the keyboard follows it again.
    @Test func aHungApplicationHoldsNoTapUp() throws {
        let rig = try AutoShowRig()
        defer { rig.stop() }
        let terminal = try Terminal(session: rig.session)
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        let gtk = try FieldsWindow(session: rig.session, environment: rig.bus.environment.merging(["KEYPANE_FIELDS_AT": "600,0"]) { $1 },
                                   script: "gtk-fields.py", widgets: 5,
                                   arguments: [rig.session.directory.appendingPathComponent("t.out").path])
        rig.click(gtk.centres["plain"]!)
        #expect(waitUntil { rig.session.focusedWindowFamily().contains { rig.session.title(of: $0) == "Keypane fields" } })
        #expect(rig.status(Self.shown) == Self.shown)
        try tapText("a", on: rig.keyboard)
        #expect(gtk.waitFor("plain", "A") == "A")
        kill(gtk.process.processIdentifier, SIGSTOP)
        defer { kill(gtk.process.processIdentifier, SIGCONT) }
        try tapText("b", on: rig.keyboard)
        // A person goes to the other window a moment later, not within the millisecond: a busy machine can
        // take that long to send "b" to the stopped application, which would then reach xterm.
        usleep(300_000)
        let text = String(String(repeating: "abcdefghijklmnopqrstuvwxyz", count: 2).prefix(50))
        let slowest = try Self.tapIntoTerminal(text, rig: rig, terminal: terminal)
        #expect(terminal.text == text)
        // A tap held up by the stopped application would wait out the bus's 0.5 s time-out.
        #expect(slowest < 0.45, "the slowest tap took \(slowest) s")
        kill(gtk.process.processIdentifier, SIGCONT)
        rig.click(gtk.centres["password"]!)
        #expect(rig.status(Self.secure) == Self.secure, "the application answers again")
        rig.finish()
    }

    /// A GTK application that stops answering for three seconds right after a field of its got the focus,
    /// while the keyboard asks it what the field is: taps into xterm meanwhile arrive as soon as usual
    /// (the questions were each waited for up to the bus's 0.5 s time-out before).
    @Test func anApplicationBusyAfterItsFocusEventHoldsNoTapUp() throws {
        let rig = try AutoShowRig()
        defer { rig.stop() }
        let terminal = try Terminal(session: rig.session)
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        let gtk = try FieldsWindow(session: rig.session,
                                   environment: rig.bus.environment.merging(["KEYPANE_FIELDS_AT": "600,0", "KEYPANE_FIELDS_HANG": "3"]) { $1 },
                                   script: "gtk-fields.py", widgets: 5,
                                   arguments: [rig.session.directory.appendingPathComponent("t.out").path])
        rig.click(gtk.centres["plain"]!)
        #expect(rig.status(Self.shown) == Self.shown)
        rig.click(gtk.centres["multiline"]!)
        usleep(150_000)
        let expected = "thekeyboardwaitsfornoone"
        let slowest = try Self.tapIntoTerminal(expected, rig: rig, terminal: terminal)
        // The first letter a capital: the keyboard's record starts afresh in the terminal.
        #expect(terminal.text.lowercased() == expected)
        #expect(slowest < 0.45, "the slowest tap took \(slowest) s")
        rig.finish()
    }
}
