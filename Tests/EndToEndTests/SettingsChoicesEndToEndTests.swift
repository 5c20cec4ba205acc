import Foundation
import Testing

/// The settings panel's lists and choices that go beyond a switch: the Globe key's list ordered and
/// joined by keyboard types, the scanning switch chosen by pressing it, and which fields show the
/// keyboard changed while it runs.
@Suite(.serialized) struct SettingsChoicesEndToEndTests {
    static func status(_ session: XSession) throws -> [String: String] { try SettingsEndToEndTests.status(session) }

    static func globeList(_ session: XSession) -> String? { try? status(session)["keyboards"] }

    /// Emoji moved before English, the number pad added and the desktop keyboard taken out, each at once;
    /// the next start has the same list, in the same order.
    @Test func theGlobeListIsOrderedAndKeyboardTypesJoinIt() throws {
        let session = try XSession()
        defer { session.stop() }
        let file = try SettingsEndToEndTests.writeSettings(session, "# mine\n")
        let keyboard = try LiveKeyboard(session: session, plainText: false)
        #expect(waitUntil(timeout: 5) { Self.globeList(session) == "default,emoji,desktop" }, "\(Self.globeList(session) ?? "")")
        _ = try session.run(keypanePath, ["settings", "keyboards"])
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings"]) == "keyboards" })
        let page = try keyboard.geometry(type: "default", layer: nil, settings: "keyboards")
        keyboard.tap(try #require(page.key(action: "setting:move:emoji")), hold: 0.1)
        #expect(waitUntil(timeout: 3) { Self.globeList(session) == "emoji,default,desktop" }, "\(Self.globeList(session) ?? "")")
        // Drawn again with emoji first: the rows' places are those of the list now.
        let moved = try keyboard.geometry(type: "default", layer: nil, settings: "keyboards")
        keyboard.tap(try #require(moved.key(action: "setting:keyboard:desktop")), hold: 0.1)
        #expect(waitUntil(timeout: 3) { Self.globeList(session) == "emoji,default" }, "\(Self.globeList(session) ?? "")")
        let (layer, pad) = try SettingsEndToEndTests.panelKey(keyboard, action: "setting:keyboard:number-pad", on: "keyboards")
        _ = try session.run(keypanePath, ["settings", layer])
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings"]) == layer })
        keyboard.tap(pad, hold: 0.1)
        #expect(waitUntil(timeout: 3) { Self.globeList(session) == "emoji,default,number-pad" }, "\(Self.globeList(session) ?? "")")
        #expect(try String(contentsOf: file, encoding: .utf8) == "# mine\nkeyboards = emoji, default, number-pad\n")
        _ = keyboard.terminate()

        let again = try LiveKeyboard(session: session, plainText: false)
        #expect(waitUntil(timeout: 5) { Self.globeList(session) == "emoji,default,number-pad" }, "\(Self.globeList(session) ?? "")")
        _ = again.terminate()
        #expect(session.keysDown().isEmpty)
    }

    /// A switch user picks "Scanning Switch" with the switch they have (F12) and presses the one they want
    /// instead (Pause): the new one scans and picks at once, is kept in the file, and F12 is the
    /// terminal's again.
    @Test func aScanningSwitchIsChosenByPressingIt() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--scan", "auto",
                                                                      "--scan-interval", "0.6"])
        _ = try session.run(keypanePath, ["settings", "accessibility"])
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings"]) == "accessibility" })
        let page = try keyboard.geometry(type: "default", layer: nil, settings: "accessibility")
        let row = try #require(page.key(action: "setting:scan-switch"))
        #expect(row.value == "F12")

        /// Waits for `name` to be highlighted alone, or a row or group holding it, and picks it with `switchKey`.
        func scanPick(_ name: String, with switchKey: String, until done: ([String: String]) -> Bool) throws {
            let started = Date()
            while Date().timeIntervalSince(started) < 30 {
                let fields = try Self.status(session)
                if done(fields) { return }
                let scanned = fields["scanned"] ?? ""
                if scanned.isEmpty || scanned.contains(name) {
                    session.holdKey(switchKey, seconds: 0.15)
                    usleep(200_000)
                } else {
                    usleep(40_000)
                }
            }
            Issue.record("\(name) was not reached with \(switchKey): \((try? Self.status(session)) ?? [:])")
        }
        try scanPick("Scanning Switch", with: "F12") { $0["settings-waiting"] == "scan-switch" }
        usleep(500_000)
        session.holdKey("Pause", seconds: 0.2)
        let file = session.configDirectory.appendingPathComponent("keypane/config")
        #expect(waitUntil(timeout: 3) { (try? String(contentsOf: file, encoding: .utf8)) == "scan-switch = Pause\n" })
        // Pause scans now: it picks Done.
        try scanPick("Done", with: "Pause") { $0["settings"] == nil }
        // F12 is no switch any more: the terminal gets it.
        session.holdKey("F12", seconds: 0.1)
        #expect(waitUntil(timeout: 3) { String(decoding: terminal.bytes, as: UTF8.self).contains("[24~") })
        _ = keyboard.terminate()
        #expect(session.keysDown().isEmpty)
    }

    /// Step scanning has two switches: the row asks for the one that moves, then the one that picks, each
    /// pressed a moment; both are kept, in that order.
    @Test func stepScanningsTwoSwitchesAreChosenInTurn() throws {
        let session = try XSession()
        defer { session.stop() }
        let file = try SettingsEndToEndTests.writeSettings(session, "scan = step\n")
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"])
        _ = try session.run(keypanePath, ["settings", "accessibility"])
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings"]) == "accessibility" })
        let page = try keyboard.geometry(type: "default", layer: nil, settings: "accessibility")
        let row = try #require(page.key(action: "setting:scan-switch"))
        #expect(row.value == "F11, F12")
        keyboard.tap(row, hold: 0.1)
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings-waiting"]) == "scan-switch" })
        session.holdKey("F9", seconds: 0.2)
        usleep(300_000)
        #expect(try Self.status(session)["settings-waiting"] == "scan-switch", "waiting for the second switch")
        session.holdKey("F10", seconds: 0.2)
        #expect(waitUntil(timeout: 3) { (try? String(contentsOf: file, encoding: .utf8)) == "scan = step\nscan-switch = F9, F10\n" })
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings-waiting"]) == nil })
        _ = keyboard.terminate()
        #expect(session.keysDown().isEmpty)
    }

    /// Which fields show the keyboard changes while it runs: automatic (any focus, without a
    /// touchscreen), then any focused field, fields touched, none (always shown) and automatic again; and a
    /// keyboard started following no field follows them from the change on: hidden, it comes back for a
    /// GTK entry clicked.
    @Test func whichFieldsShowTheKeyboardChangesAtOnce() throws {
        let session = try XSession()
        defer { session.stop() }
        let bus = try SessionBus(session: session)
        defer { bus.stop() }
        var keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"],
                                        environment: bus.environment, autoShow: true)
        #expect(try Self.status(session)["auto-show"] == "focus")
        _ = try session.run(keypanePath, ["settings", "showing"])
        let page = try keyboard.geometry(type: "default", layer: nil, settings: "showing")
        let row = try #require(page.key(action: "setting:auto-show"))
        for expected in ["focus", "touch", "never", "focus"] {
            keyboard.tap(row, hold: 0.1)
            #expect(waitUntil(timeout: 3) { (try? Self.status(session)["auto-show"]) == expected }, "\(expected)")
            usleep(200_000)
        }
        let file = session.configDirectory.appendingPathComponent("keypane/config")
        #expect(try String(contentsOf: file, encoding: .utf8) == "")
        _ = keyboard.terminate()

        keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"], environment: bus.environment)
        #expect(try Self.status(session)["auto-show"] == "never")
        _ = try session.run(keypanePath, ["settings", "showing"])
        keyboard.tap(row, hold: 0.1)
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["auto-show"]) == "focus" })
        keyboard.tap(try #require(page.key(action: "close-settings")), hold: 0.1)
        _ = try session.run(keypanePath, ["hide"])
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["visible"]) == "no" })
        _ = try FieldsWindow.focusedGtkEntry(session: session, bus: bus)
        #expect(waitUntil(timeout: 5) { (try? Self.status(session)["visible"]) == "yes" })
        _ = keyboard.terminate()
    }
}
