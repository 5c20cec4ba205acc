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

/// A window of Tests/Fixtures (gtk-fields.py: a plain entry, a password entry, a text view, a terminal and a
/// button;
/// qt-fields.py: a line edit, a password line edit and a button), reporting where its widgets are and what
/// its fields hold.
final class FieldsWindow {
    let output: URL
    /// The window's python3 process.
    private(set) var process = Process()
    private(set) var centres: [String: (x: Int, y: Int)] = [:]

    init(session: XSession, environment: [String: String], script: String, widgets: Int, arguments: [String] = []) throws {
        output = session.directory.appendingPathComponent(script + ".out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        // Debian's python3, which has python3-gi and python3-pyqt5 (not one earlier on the PATH).
        process = try session.start("/usr/bin/python3", [packageRoot + "/Tests/Fixtures/" + script] + arguments, stdout: handle,
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

    /// gtk-fields.py on a session's accessibility bus, its plain entry given the focus with a click, as
    /// a person does before typing into it with the keyboard.
    static func focusedGtkEntry(session: XSession, bus: SessionBus) throws -> FieldsWindow {
        let app = try FieldsWindow(session: session, environment: bus.environment, script: "gtk-fields.py",
                                   widgets: 5, arguments: [session.directory.appendingPathComponent("t.out").path])
        session.tap(x: app.centres["plain"]!.x, y: app.centres["plain"]!.y)
        usleep(300_000)
        return app
    }

    /// The widgets that said they got the keyboard focus, in order.
    var focusReports: [String] { lines().compactMap { $0["focus"] as? String } }

    /// A field's text as it last reported it.
    func text(_ name: String) -> String? {
        lines().last { $0["text"] as? String == name }?["value"] as? String
    }

    /// Waits until the field holds `expected`; returns what it holds.
    func waitFor(_ name: String, _ expected: String, timeout: Double = 10) -> String? {
        _ = waitUntil(timeout: timeout) { self.text(name) == expected }
        return text(name)
    }
}

/// A session with an accessibility bus and a keyboard that follows the focus.
final class AutoShowRig {
    let session: XSession
    let bus: SessionBus
    let keyboard: LiveKeyboard

    /// On a session of its own, or on `session` (which `stop` then stops).
    init(session given: XSession? = nil, arguments: [String] = ["--keyboards", "default"]) throws {
        session = try given ?? XSession()
        do {
            bus = try SessionBus(session: session)
        } catch {
            session.stop()
            throw error
        }
        do {
            keyboard = try LiveKeyboard(session: session, arguments: arguments,
                                        environment: bus.environment, plainText: false, autoShow: true)
        } catch {
            bus.stop()
            session.stop()
            throw error
        }
        keyboard.extra = ["--no-globe"]
    }

    func stop() {
        bus.stop()
        session.stop()
    }

    func click(_ point: (x: Int, y: Int)) { session.tap(x: point.x, y: point.y) }

    /// `keypane status`'s fields (none while the keyboard cannot answer yet).
    func status() -> [String: String] {
        (try? session.run(keypanePath, ["status"])).map { ControlEndToEndTests.fields($0.output) } ?? [:]
    }

    /// Waits until the status has the expected fields; returns those fields as they last were.
    func status(_ expected: [String: String], timeout: Double = 10) -> [String: String] {
        var last: [String: String] = [:]
        _ = waitUntil(timeout: timeout) {
            last = status()
            return expected.allSatisfy { last[$0.key] == $0.value }
        }
        return last.filter { expected[$0.key] != nil }
    }

    /// Ends the keyboard: its status and what it said, which should be nothing.
    func finish() {
        let (status, messages) = keyboard.terminate()
        #expect(status == 0)
        #expect(messages.isEmpty, "\(messages)")
    }
}
