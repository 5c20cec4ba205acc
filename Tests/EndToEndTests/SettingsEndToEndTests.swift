import CX11
import Foundation
import Testing

/// The settings panel on the live keyboard: opened from the Globe key's list, changed by touch, by switch
/// scanning and by dwell; every change applies at once and lands in the settings file, whose comments and
/// other lines stay as they were.
@Suite(.serialized) struct SettingsEndToEndTests {
    /// A settings file as a person keeps it: comments, a setting the panel does not show, a mistake.
    static let settingsText = """
        # My keyboard
        suggestions = on   # keep the bar
        this line is a mistake
        long-press = 0.6

        """

    static func writeSettings(_ session: XSession, _ text: String = settingsText) throws -> URL {
        let file = session.configDirectory.appendingPathComponent("keypane/config")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    static func status(_ session: XSession) throws -> [String: String] {
        ControlEndToEndTests.fields(try session.run(keypanePath, ["status"]).output)
    }

    /// The page of the panel that has a row or key with this action, and that key, at the keyboard's size.
    static func panelKey(_ keyboard: LiveKeyboard, action: String, on page: String) throws -> (layer: String, key: GeometryKey) {
        let first = try keyboard.geometry(type: "default", layer: nil, settings: page)
        for layer in first.layers where layer == page || layer.hasPrefix(page + "-") {
            let shown = try keyboard.geometry(type: "default", layer: nil, settings: layer)
            if let key = shown.key(action: action) { return (layer, key) }
        }
        throw TestFailure("no \(action) on the \(page) pages")
    }

    /// The share of the keyboard's pixels darker than mid grey: most of a dark theme's, few of a light one's.
    static func darkShare(_ session: XSession, _ keyboard: LiveKeyboard) -> Double {
        let pixels = FontRecordEndToEndTests.pixels(session, keyboard.frame)
        guard !pixels.isEmpty else { return 0 }
        var dark = 0
        for index in stride(from: 0, to: pixels.count - 3, by: 4) where Int(pixels[index]) + Int(pixels[index + 1]) + Int(pixels[index + 2]) < 3 * 128 {
            dark += 1
        }
        return Double(dark) / Double(pixels.count / 4)
    }

    /// What the done-when asks: with only a touchscreen, open the panel from the Globe key's list, turn the
    /// click off, choose the dark theme, add German, and go back to the keyboard. Real touches (Xorg's
    /// inputtest driver), each held a moment as a finger is.
    @Test func aTouchOnlyPersonTurnsTheClickOffChoosesDarkAndAddsGerman() throws {
        let session = try XSession(realInput: true)
        defer { session.stop() }
        let touch = try #require(session.inputDevices)
        let file = try Self.writeSettings(session)
        let keyboard = try LiveKeyboard(session: session, plainText: false, sound: true)
        // The emoji keyboard joins the Globe list once the first frame is out.
        #expect(waitUntil(timeout: 5) { (try? Self.status(session)["keyboards"]?.contains("emoji")) == true })
        let before = try Self.status(session)
        #expect(before["theme"] == "light" && before["sound"] == "on")
        #expect(Self.darkShare(session, keyboard) < 0.2)
        let keyboards = (before["keyboards"] ?? "").split(separator: ",")
        #expect(!keyboards.contains("de"))

        func tap(_ key: GeometryKey) {
            touch.tap(x: keyboard.frame.x + key.centre.0, y: keyboard.frame.y + key.centre.1, hold: 0.1)
            usleep(250_000)
        }
        func go(_ action: String, on page: String) throws {
            let (layer, key) = try Self.panelKey(keyboard, action: action, on: page)
            if try Self.status(session)["settings"] != layer {
                // A long page: turned with its arrow key until the row's layer shows.
                for _ in 0..<8 where try Self.status(session)["settings"] != layer {
                    let shown = try keyboard.geometry(type: "default", layer: nil,
                                                      settings: try Self.status(session)["settings"] ?? page)
                    tap(try #require(shown.keys.first { $0.label.hasSuffix("›") && $0.action?.hasPrefix("layer:") == true }))
                }
            }
            tap(key)
        }

        // Hold the Globe key; the list opens over the keys; slide to its last entry and lift.
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let globe = try #require(letters.key(action: "globe"))
        let entries = keyboards.count + (letters.key(action: "dismiss") == nil ? 1 : 0) + 1
        let (gx, gy) = (keyboard.frame.x + globe.centre.0, keyboard.frame.y + globe.centre.1)
        touch.touch(1, .begin, x: gx, y: gy)
        usleep(700_000)
        let last = keyboard.keyboardListRow(globe, index: entries - 1, count: entries)
        touch.touch(1, .update, x: keyboard.frame.x + last.x, y: keyboard.frame.y + last.y)
        usleep(150_000)
        touch.touch(1, .end, x: keyboard.frame.x + last.x, y: keyboard.frame.y + last.y)
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings"]) == "settings" })
        // It is as tall as the keys were, in the same place.
        #expect(session.frame(keyboard.window) == keyboard.frame)

        try go("setting:page:sound", on: "settings")
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings"]) == "sound" })
        try go("setting:sound", on: "sound")
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["sound"]) == "off" })
        try go("layer:settings", on: "sound")
        try go("setting:page:look", on: "settings")
        try go("setting:theme", on: "look")
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["theme"]) == "dark" })
        try go("layer:settings", on: "look")
        try go("setting:page:keyboards", on: "settings")
        try go("setting:keyboard:de", on: "keyboards")
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["keyboards"])?.split(separator: ",").contains("de") == true })
        try go("close-settings", on: "keyboards")
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings"]) == nil })

        // Back on the keyboard, drawn dark, with German in the Globe cycle.
        let after = try Self.status(session)
        #expect(after["type"] == before["type"] && after["theme"] == "dark" && after["sound"] == "off")
        usleep(200_000)
        #expect(Self.darkShare(session, keyboard) > 0.8)

        // The file holds exactly those changes, its own lines as they were.
        let written = try String(contentsOf: file, encoding: .utf8)
        let lines = written.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.prefix(4) == ["# My keyboard", "suggestions = on   # keep the bar", "this line is a mistake",
                                    "long-press = 0.6"])
        #expect(lines.contains("sound = off") && lines.contains("theme = dark"))
        let globeLine = try #require(lines.first { $0.hasPrefix("keyboards = ") })
        #expect(globeLine.hasSuffix(", de"), "\(globeLine)")
        #expect(lines.count == 8 && lines.last == "", "\(lines)")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let (status, _) = keyboard.terminate()
        #expect(status == 0)
        #expect(session.keysDown().isEmpty)

        // The next start reads them: dark, silent, German.
        let again = try LiveKeyboard(session: session, plainText: false, sound: true)
        #expect(waitUntil(timeout: 5) { (try? Self.status(session)["keyboards"]?.contains("emoji")) == true })
        let next = try Self.status(session)
        #expect(next["theme"] == "dark" && next["sound"] == "off")
        #expect(next["keyboards"]?.split(separator: ",").contains("de") == true)
        _ = again.terminate()
    }

    /// One switch, auto scanning: the same changes, picked when the highlight reaches each row.
    @Test func aSwitchUserMakesTheSameChangesByScanning() throws {
        let session = try XSession()
        defer { session.stop() }
        let file = try Self.writeSettings(session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--scan", "auto", "--scan-interval", "1"],
                                        plainText: false, sound: true)
        #expect(waitUntil(timeout: 5) { (try? Self.status(session)["keyboards"]?.contains("emoji")) == true })

        /// Waits for `name` alone to be highlighted and picks it (a press of 0.15 s, or `hold`), until `done`.
        func scanPick(_ name: String, hold: Double = 0.15, until done: ([String: String]) -> Bool) throws {
            let started = Date()
            while Date().timeIntervalSince(started) < 30 {
                let fields = try Self.status(session)
                if done(fields) { return }
                if let step = fields["scan-step"].flatMap(Double.init), step < 0.2 {
                    usleep(useconds_t(step * 1_000_000) + 20_000)
                    continue
                }
                let scanned = fields["scanned"] ?? ""
                if scanned.isEmpty {
                    // Paused after rounds with no pick: the switch wakes it.
                    session.holdKey("F12", seconds: 0.15)
                    usleep(150_000)
                } else if scanned == name {
                    session.holdKey("F12", seconds: hold)
                    usleep(150_000)
                } else if scanned.contains(name) {
                    // A row or group with it: picked, to scan its keys.
                    session.holdKey("F12", seconds: 0.15)
                    usleep(150_000)
                } else {
                    usleep(40_000)
                }
            }
            Issue.record("\(name) was not reached: \((try? Self.status(session)) ?? [:])")
        }
        // Held on the Globe key, the switch opens its list; the list's last entry is picked.
        try scanPick("globe", hold: 0.9) { $0["scanned"] == "Keyboard Settings" || $0["settings"] != nil }
        try scanPick("Keyboard Settings") { $0["settings"] == "settings" }
        try scanPick("Sound") { $0["settings"] == "sound" }
        try scanPick("Input Click") { $0["sound"] == "off" }
        try scanPick("‹ Settings") { $0["settings"] == "settings" }
        try scanPick("Look and Size") { $0["settings"] == "look" }
        try scanPick("Theme") { $0["theme"] == "dark" }
        try scanPick("‹ Settings") { $0["settings"] == "settings" }
        try scanPick("Keyboards") { $0["settings"] == "keyboards" }
        try scanPick("1/8 ›") { $0["settings"] == "keyboards-2" }
        try scanPick("Deutsch") { $0["keyboards"]?.split(separator: ",").contains("de") == true }
        try scanPick("Done") { $0["settings"] == nil }
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written.hasPrefix(Self.settingsText))
        #expect(written.contains("\nsound = off\n") && written.contains("\ntheme = dark\n") && written.contains(", de\n"))
        let (status, _) = keyboard.terminate()
        #expect(status == 0)
        #expect(session.keysDown().isEmpty)
    }

    /// Dwell, for a head pointer: rest on the Globe key, on Keyboard Settings, on each row.
    @Test func aDwellUserMakesTheSameChangesByResting() throws {
        let session = try XSession()
        defer { session.stop() }
        let file = try Self.writeSettings(session, "# dwell\n")
        let keyboard = try LiveKeyboard(session: session, arguments: ["--dwell", "0.6"], plainText: false, sound: true)
        #expect(waitUntil(timeout: 5) { (try? Self.status(session)["keyboards"]?.contains("emoji")) == true })
        let keyboards = (try Self.status(session)["keyboards"] ?? "").split(separator: ",")
        func rest(_ x: Int, _ y: Int, until done: @escaping ([String: String]) -> Bool) {
            // The pointer drifts onto the spot, as a head pointer does, and rests.
            session.move(x: keyboard.frame.x + x - 6, y: keyboard.frame.y + y + 4)
            usleep(60_000)
            session.move(x: keyboard.frame.x + x, y: keyboard.frame.y + y)
            let reached = waitUntil(timeout: 4) { (try? Self.status(session)).map(done) == true }
            #expect(reached, "resting at \(x),\(y): \((try? Self.status(session)) ?? [:])")
        }
        func rest(on action: String, page: String, until done: @escaping ([String: String]) -> Bool) throws {
            let key = try Self.panelKey(keyboard, action: action, on: page).key
            rest(key.centre.0, key.centre.1, until: done)
        }
        let letters = try keyboard.geometry(type: "default", layer: "letters")
        let globe = try #require(letters.key(action: "globe"))
        let entries = keyboards.count + (letters.key(action: "dismiss") == nil ? 1 : 0) + 1
        rest(globe.centre.0, globe.centre.1) { _ in true }
        usleep(900_000)
        let last = keyboard.keyboardListRow(globe, index: entries - 1, count: entries)
        rest(last.x, last.y) { $0["settings"] == "settings" }
        try rest(on: "setting:page:sound", page: "settings") { $0["settings"] == "sound" }
        try rest(on: "setting:sound", page: "sound") { $0["sound"] == "off" }
        try rest(on: "layer:settings", page: "sound") { $0["settings"] == "settings" }
        try rest(on: "setting:page:look", page: "settings") { $0["settings"] == "look" }
        try rest(on: "setting:theme", page: "look") { $0["theme"] == "dark" }
        try rest(on: "close-settings", page: "look") { $0["settings"] == nil }
        #expect(try String(contentsOf: file, encoding: .utf8) == "# dwell\nsound = off\ntheme = dark\n")
        _ = keyboard.terminate()
    }

    /// A text replacement written in the panel with its own keys, typed at once, and removed again by two
    /// taps on its row; the replacements file (0600) follows each change.
    @Test func aReplacementIsWrittenInThePanelTypedAndRemoved() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default", "--autocapitalization", "none"],
                                        plainText: false)
        let file = session.dataDirectory.appendingPathComponent("keypane/replacements")
        _ = try session.run(keypanePath, ["settings", "replacements"])
        let list = try keyboard.geometry(type: "default", layer: nil, settings: "replacements")
        keyboard.tap(try #require(list.key(action: "setting:add-replacement")), hold: 0.08)
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings"]) == "replacement-entry" })
        let entry = try keyboard.geometry(type: "default", layer: nil, settings: "replacement-entry")
        func write(_ text: String) throws {
            for character in text {
                keyboard.tap(try #require(entry.key(action: "entry:\(character)"), "no key \(character)"), hold: 0.05)
                usleep(80_000)
            }
        }
        try write("be right back")
        keyboard.tap(try #require(entry.key(action: "setting:entry-field:shortcut")), hold: 0.05)
        usleep(100_000)
        try write("brb")
        keyboard.tap(try #require(entry.key(action: "entry-save")), hold: 0.05)
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings"]) == "replacements" })
        var kept = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        #expect(kept.contains("\nomw\tOn my way!\n") && kept.hasSuffix("\nbrb\tBe right back\n"), "\(kept)")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
        keyboard.tap(try #require(list.key(action: "close-settings")), hold: 0.05)
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings"]) == nil })
        try tapText("brb ", on: keyboard)
        #expect(terminal.waitFor(text: "Be right back ") == "Be right back ")

        // Two taps on its row take it away.
        _ = try session.run(keypanePath, ["settings", "replacements"])
        // The list's third row, after Add and omw (the rows are evenly spaced).
        let add = try #require(list.key(action: "setting:add-replacement"))
        let omw = try #require(list.key(action: "setting:replacement:omw"))
        var row = omw
        row.y += omw.y - add.y
        keyboard.tap(row, hold: 0.05)
        usleep(300_000)
        #expect(try String(contentsOf: file, encoding: .utf8) == kept)
        keyboard.tap(row, hold: 0.05)
        #expect(waitUntil(timeout: 3) { (try? String(contentsOf: file, encoding: .utf8))?.contains("brb") == false })
        kept = try String(contentsOf: file, encoding: .utf8)
        #expect(kept.contains("\nomw\tOn my way!\n"))
        _ = keyboard.terminate()
    }

    /// The docked height, changed in the panel: the window takes 40% of the screen at once, the panel
    /// laid out again in it, and the file says so.
    @Test func theHeightChangesAtOnce() throws {
        let session = try XSession()
        defer { session.stop() }
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"], plainText: false)
        let before = keyboard.frame
        _ = try session.run(keypanePath, ["settings", "look"])
        let look = try keyboard.geometry(type: "default", layer: nil, settings: "look")
        keyboard.tap(try #require(look.key(action: "setting:height")), hold: 0.08)
        #expect(keyboard.waitForFrame { $0.height == session.height * 40 / 100 })
        #expect(keyboard.frame.y + keyboard.frame.height == before.y + before.height)
        #expect(try Self.status(session)["settings"] == "look")
        let written = try String(contentsOf: session.configDirectory.appendingPathComponent("keypane/config"), encoding: .utf8)
        #expect(written == "height = 40%\n")
        // The panel's rows fill the new height: Done is at the bottom.
        let done = try #require(try keyboard.geometry(type: "default", layer: nil, settings: "look").key(action: "close-settings"))
        #expect(done.y + done.height > keyboard.frame.height * 9 / 10)
        _ = keyboard.terminate()
    }

    /// Switch scanning and dwell turned on in the panel work at once: scanning takes F12 from every
    /// application until it is turned off again; a pointer resting on a key then types it.
    @Test func scanningAndDwellTurnOnAtOnce() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default"])
        _ = try session.run(keypanePath, ["settings", "accessibility"])
        let page = try keyboard.geometry(type: "default", layer: nil, settings: "accessibility")
        let scan = try #require(page.key(action: "setting:scan"))
        keyboard.tap(scan, hold: 0.08)
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["scanned"]).map { !$0.isEmpty } == true })
        // The switch is the keyboard's now: xterm gets nothing of it. (Pressed while the row of the page's
        // keys is highlighted: a pick there only enters the row.)
        #expect(waitUntil(timeout: 10) { (try? Self.status(session)["scanned"])?.hasSuffix("Done") == true })
        session.holdKey("F12", seconds: 0.1)
        usleep(300_000)
        #expect(!String(decoding: terminal.bytes, as: UTF8.self).contains("[24~"))
        keyboard.tap(scan, hold: 0.08)       // step
        usleep(200_000)
        keyboard.tap(scan, hold: 0.08)       // off
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["scanned"]) == nil })
        session.holdKey("F12", seconds: 0.1)
        #expect(waitUntil(timeout: 3) { String(decoding: terminal.bytes, as: UTF8.self).contains("[24~") })

        let dwell = try #require(page.key(action: "setting:dwell"))
        keyboard.tap(dwell, hold: 0.08)      // 0.8 s
        keyboard.tap(try #require(page.key(action: "close-settings")), hold: 0.08)
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings"]) == nil })
        let before = terminal.bytes.count
        let q = try #require(try keyboard.geometry(type: "default", layer: "letters").key(label: "q"))
        session.move(x: keyboard.frame.x + q.centre.0 - 5, y: keyboard.frame.y + q.centre.1)
        usleep(80_000)
        session.move(x: keyboard.frame.x + q.centre.0, y: keyboard.frame.y + q.centre.1)
        #expect(waitUntil(timeout: 3) { terminal.bytes.count > before })
        #expect(String(decoding: terminal.bytes.suffix(from: before), as: UTF8.self) == "q")
        let written = try String(contentsOf: session.configDirectory.appendingPathComponent("keypane/config"), encoding: .utf8)
        #expect(written == "dwell = 0.8\n", "\(written)")
        _ = keyboard.terminate()
        #expect(session.keysDown().isEmpty)
    }

    /// The theme that follows the desktop: dark while the desktop's GTK theme (XSETTINGS, here published by
    /// xsettingsd) is a dark one, light again when it changes back, with the keyboard running.
    @Test func theDesktopThemeIsFollowed() throws {
        let session = try XSession()
        defer { session.stop() }
        let file = session.directory.appendingPathComponent("xsettingsd.conf")
        try "Net/ThemeName \"Adwaita-dark\"\n".write(to: file, atomically: true, encoding: .utf8)
        let daemon = try session.start("/usr/bin/xsettingsd", ["-c", file.path])
        #expect(waitUntil { XGetSelectionOwner(session.connection, session.atom("_XSETTINGS_S0")) != 0 })
        let keyboard = try LiveKeyboard(session: session, arguments: ["--theme", "desktop"], plainText: false)
        #expect(try Self.status(session)["theme"] == "desktop")
        #expect(waitUntil(timeout: 3) { Self.darkShare(session, keyboard) > 0.8 })
        try "Net/ThemeName \"Adwaita\"\n".write(to: file, atomically: true, encoding: .utf8)
        kill(daemon.processIdentifier, SIGHUP)
        #expect(waitUntil(timeout: 3) { Self.darkShare(session, keyboard) < 0.2 })
        _ = keyboard.terminate()
    }

    /// A kiosk: the administrator locked the theme; the panel shows it greyed and a tap changes nothing.
    /// A settings file the keyboard cannot read in part opens the panel all the same, and is not written
    /// until a change is made.
    @Test func aLockedSettingCannotChangeAndABrokenFileIsKeptUntilAChange() throws {
        let session = try XSession()
        defer { session.stop() }
        let system = session.directory.appendingPathComponent("xdg")
        try FileManager.default.createDirectory(at: system.appendingPathComponent("keypane"), withIntermediateDirectories: true)
        try "theme = high-contrast\n".write(to: system.appendingPathComponent("keypane/locked"), atomically: true, encoding: .utf8)
        let broken = "theme = dark\nsound = loud\n= nothing\n\u{1}\n"
        let file = try Self.writeSettings(session, broken)
        let environment = ["XDG_CONFIG_DIRS": system.path]
        let keyboard = try LiveKeyboard(session: session, environment: environment, plainText: false, sound: true)
        _ = try session.run(keypanePath, ["settings", "look"])
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["settings"]) == "look" })
        // The lock wins over the user's file; the bad sound value is the default.
        #expect(try Self.status(session)["theme"] == "high-contrast")
        #expect(try Self.status(session)["sound"] == "on")
        #expect(try String(contentsOf: file, encoding: .utf8) == broken)
        let look = try keyboard.geometry(type: "default", layer: nil, settings: "look")
        let theme = try #require(look.key(action: "setting:theme"))
        keyboard.tap(theme, hold: 0.1)
        usleep(300_000)
        #expect(try Self.status(session)["theme"] == "high-contrast")
        #expect(try String(contentsOf: file, encoding: .utf8) == broken)
        // A change to another setting writes the file: its line alone, the lines it could not read kept.
        _ = try session.run(keypanePath, ["settings", "sound"])
        let sound = try #require(try keyboard.geometry(type: "default", layer: nil, settings: "sound").key(action: "setting:sound"))
        keyboard.tap(sound, hold: 0.1)
        #expect(waitUntil(timeout: 3) { (try? Self.status(session)["sound"]) == "off" })
        #expect(try String(contentsOf: file, encoding: .utf8) == "theme = dark\nsound = off\n= nothing\n\u{1}\n")
        let (_, messages) = keyboard.terminate()
        #expect(messages.contains("locked by the administrator"))

        // Locked away: no entry in the Globe list, and `keypane settings` says why.
        try "settings-panel = off\n".write(to: system.appendingPathComponent("keypane/locked"), atomically: true, encoding: .utf8)
        let kiosk = try LiveKeyboard(session: session, environment: environment, plainText: false)
        let refused = try session.run(keypanePath, ["settings"])
        #expect(refused.status != 0 && refused.errors.contains("locked by the administrator"))
        _ = kiosk.terminate()
    }
}
