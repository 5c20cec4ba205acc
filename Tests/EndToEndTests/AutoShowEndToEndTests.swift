import Foundation
import Testing
import TestSupport

/// A private D-Bus session bus for one X session: the accessibility bus is started on it on demand (by
/// at-spi2-core's bus launcher), and both are stopped by process id when the test ends.
final class SessionBus {
    let session: XSession
    let address: String
    private let daemon: Process

    init(session: XSession) throws {
        self.session = session
        let out = Pipe()
        daemon = try session.start("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1",
                                                            "--address=unix:tmpdir=\(session.directory.path)"],
                                   stdout: out.fileHandleForWriting)
        var line = ""
        while !line.hasSuffix("\n") {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { throw TestFailure("dbus-daemon did not start") }
            line += String(decoding: byte, as: UTF8.self)
        }
        address = line.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// org.a11y.Status IsEnabled, as the accessibility bus's launcher says; nil without an answer.
    func accessibilityEnabled() -> Bool? {
        guard let reply = try? session.run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.a11y.Bus",
                                                                 "/org/a11y/bus", "org.freedesktop.DBus.Properties.Get",
                                                                 "string:org.a11y.Status", "string:IsEnabled"],
                                           environment: environment), reply.status == 0 else { return nil }
        if reply.output.contains("boolean true") { return true }
        return reply.output.contains("boolean false") ? false : nil
    }

    /// Stops the accessibility bus (its launcher takes its own bus daemon and registry with it), then the
    /// session bus.
    func stop() {
        if let reply = try? session.run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus",
                                                              "/", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                                                              "string:org.a11y.Bus"], environment: environment),
           let pid = reply.output.split(separator: " ").last.flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            kill(pid, SIGTERM)
        }
        stopProcess(daemon)
    }
}

/// A window of Tests/Fixtures (gtk-fields.py: a plain entry, a password entry, a text view and a button;
/// qt-fields.py: a line edit, a password line edit and a button), reporting where its widgets are and what
/// its fields hold.
final class FieldsWindow {
    let output: URL
    private(set) var centres: [String: (x: Int, y: Int)] = [:]

    init(session: XSession, environment: [String: String], script: String, widgets: Int) throws {
        output = session.directory.appendingPathComponent(script + ".out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        // Debian's python3, which has python3-gi and python3-pyqt5 (not one earlier on the PATH).
        try session.start("/usr/bin/python3", [packageRoot + "/Tests/Fixtures/" + script], stdout: handle,
                          environment: environment)
        guard waitUntil({ self.read(); return self.centres.count == widgets }) else {
            throw TestFailure("the window of \(script) did not report its widgets")
        }
    }

    private func lines() -> [[String: Any]] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    private func read() {
        for line in lines() {
            if let name = line["at"] as? String, let x = line["x"] as? Int, let y = line["y"] as? Int { centres[name] = (x, y) }
        }
    }

    /// A field's text as it last reported it.
    func text(_ name: String) -> String? {
        lines().last { $0["text"] as? String == name }?["value"] as? String
    }

    /// Waits until the field holds `expected`; returns what it holds.
    func waitFor(_ name: String, _ expected: String) -> String? {
        _ = waitUntil { self.text(name) == expected }
        return text(name)
    }
}

@Suite(.serialized) struct AutoShowEndToEndTests {
    static func status(_ session: XSession) throws -> [String: String] {
        let result = try session.run(keypanePath, ["status"])
        var fields: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    /// A GTK window on a session with an accessibility bus: clicking into a field shows the keyboard with its
    /// traits, a password field turns every text behaviour off, a button hides it, and the taps type into
    /// the field that has the focus.
    @Test func theKeyboardFollowsTheFocusOfAGtkWindow() throws {
        let session = try XSession()
        defer { session.stop() }
        let bus = try SessionBus(session: session)
        defer { bus.stop() }
        #expect(bus.accessibilityEnabled() == false)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"],
                                        environment: bus.environment, plainText: false, autoShow: true)
        // Turned on for the applications that wait for it (Qt, Firefox)...
        #expect(waitUntil { bus.accessibilityEnabled() == true })
        keyboard.extra = ["--no-globe"]
        let app = try FieldsWindow(session: session, environment: bus.environment, script: "gtk-fields.py", widgets: 4)
        func click(_ name: String) {
            let centre = app.centres[name]!
            session.tap(x: centre.x, y: centre.y)
        }
        func status(_ expected: [String: String]) -> [String: String] {
            var last: [String: String] = [:]
            _ = waitUntil {
                last = (try? Self.status(session)) ?? [:]
                return expected.allSatisfy { last[$0.key] == $0.value }
            }
            return last.filter { expected[$0.key] != nil }
        }

        // Hidden by a button, shown again by a field.
        click("button")
        #expect(status(["visible": "no"]) == ["visible": "no"])
        #expect(waitUntil { session.window(classNamed: "keypane") == nil })
        click("plain")
        #expect(status(["visible": "yes", "type": "default", "secure": "no"])
                == ["visible": "yes", "type": "default", "secure": "no"])
        try tapText("hi  there", on: keyboard)
        #expect(app.waitFor("plain", "Hi. There") == "Hi. There")
        // Its own keys (XTest's device) are not a physical keyboard's: it stays.
        #expect(try Self.status(session)["visible"] == "yes")

        // A password: no capital, no period, nothing smart.
        click("password")
        #expect(status(["visible": "yes", "secure": "yes"]) == ["visible": "yes", "secure": "yes"])
        try tapText("ab  c'd", on: keyboard)
        #expect(app.waitFor("password", "ab  c'd") == "ab  c'd")

        // Back to prose in a multi-line field, with the behaviours on again.
        click("multiline")
        #expect(status(["visible": "yes", "secure": "no", "return-key": "default"])
                == ["visible": "yes", "secure": "no", "return-key": "default"])
        try tapText("ok", on: keyboard)
        #expect(app.waitFor("multiline", "Ok") == "Ok")

        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        #expect(messages.isEmpty, "\(messages)")
        // ... and off again at exit, as it was found.
        #expect(bus.accessibilityEnabled() == false)
    }

    /// A Qt 5 window, which speaks to the accessibility bus only because the keyboard turned the session's
    /// accessibility on: its line edit shows the keyboard, its password line edit a secure one.
    @Test func theKeyboardFollowsTheFocusOfAQtWindow() throws {
        let session = try XSession()
        defer { session.stop() }
        let bus = try SessionBus(session: session)
        defer { bus.stop() }
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"],
                                        environment: bus.environment, plainText: false, autoShow: true)
        keyboard.extra = ["--no-globe"]
        #expect(waitUntil { bus.accessibilityEnabled() == true })
        var environment = bus.environment
        environment["QT_LINUX_ACCESSIBILITY_ALWAYS_ON"] = nil
        let app = try FieldsWindow(session: session, environment: environment, script: "qt-fields.py", widgets: 3)
        func click(_ name: String) {
            let centre = app.centres[name]!
            session.tap(x: centre.x, y: centre.y)
        }
        func status(_ expected: [String: String]) -> [String: String] {
            var last: [String: String] = [:]
            _ = waitUntil {
                last = (try? Self.status(session)) ?? [:]
                return expected.allSatisfy { last[$0.key] == $0.value }
            }
            return last.filter { expected[$0.key] != nil }
        }
        click("button")
        #expect(status(["visible": "no"]) == ["visible": "no"])
        click("password")
        #expect(status(["visible": "yes", "secure": "yes"]) == ["visible": "yes", "secure": "yes"])
        try tapText("ab  c", on: keyboard)
        #expect(app.waitFor("password", "ab  c") == "ab  c")
        click("plain")
        #expect(status(["visible": "yes", "secure": "no"]) == ["visible": "yes", "secure": "no"])
        try tapText("hi", on: keyboard)
        #expect(app.waitFor("plain", "Hi") == "Hi")
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        #expect(messages.isEmpty, "\(messages)")
    }

    /// With no session bus, auto-show says once that it is off, and the keyboard works as before.
    @Test func withNoBusAutoShowIsOffAndSaysSo() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"],
                                        environment: ["DBUS_SESSION_BUS_ADDRESS": ""], autoShow: true)
        keyboard.extra = ["--no-globe"]
        try tapText("ok", on: keyboard)
        #expect(terminal.waitFor(text: "ok") == "ok")
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        #expect(messages == "keypane: no session bus (DBUS_SESSION_BUS_ADDRESS is not set); the keyboard does not follow the focus (auto-show is off)\n")
    }
}
