import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct AutoShowEndToEndTests {
    /// A GTK window on a session with an accessibility bus: clicking into a field shows the keyboard with its
    /// traits, a password field turns every text behaviour off, a button hides it, and the taps type into
    /// the field that has the focus.
    @Test func theKeyboardFollowsTheFocusOfAGtkWindow() throws {
        let rig = try AutoShowRig()
        defer { rig.stop() }
        // Turned on for the applications that wait for it (Qt, Firefox)...
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        // No touchscreen (Xvfb): any focused field shows it.
        #expect(rig.status(["auto-show": "focus"]) == ["auto-show": "focus"])
        let typedInTerminal = rig.session.directory.appendingPathComponent("terminal.out")
        let app = try FieldsWindow(session: rig.session, environment: rig.bus.environment, script: "gtk-fields.py",
                                   widgets: 5, arguments: [typedInTerminal.path])

        // Hidden by a button, shown again by a field.
        rig.click(app.centres["button"]!)
        #expect(rig.status(["visible": "no"]) == ["visible": "no"])
        #expect(waitUntil { rig.session.window(classNamed: "keypane") == nil })
        rig.click(app.centres["plain"]!)
        #expect(rig.status(["visible": "yes", "type": "default", "secure": "no"])
                == ["visible": "yes", "type": "default", "secure": "no"])
        try tapText("hi  there", on: rig.keyboard)
        #expect(app.waitFor("plain", "Hi. There") == "Hi. There")
        #expect(rig.status(["remembered": "9"]) == ["remembered": "9"])
        // Its own keys (XTest's device) are not a physical keyboard's: it stays.
        #expect(rig.status()["visible"] == "yes")

        // A password: no capital, no period, nothing smart.
        rig.click(app.centres["password"]!)
        #expect(rig.status(["visible": "yes", "secure": "yes"]) == ["visible": "yes", "secure": "yes"])
        try tapText("ab  c'd", on: rig.keyboard)
        #expect(app.waitFor("password", "ab  c'd") == "ab  c'd")
        // Nothing of it kept, where prose is: "Hi. There" was remembered in the entry.
        #expect(rig.status()["remembered"] == "0")

        // Back to prose in a multi-line field, with the behaviours on again.
        rig.click(app.centres["multiline"]!)
        #expect(rig.status(["visible": "yes", "secure": "no", "return-key": "default"])
                == ["visible": "yes", "secure": "no", "return-key": "default"])
        try tapText("ok", on: rig.keyboard)
        #expect(app.waitFor("multiline", "Ok") == "Ok")

        // The field's own text decides the shift: back in the entry after "Hi. There", no capital; the caret
        // moved to the start by another program's key, a capital; at the end again, none.
        rig.click(app.centres["plain"]!)
        #expect(rig.status(["visible": "yes", "layer": "letters"]) == ["visible": "yes", "layer": "letters"])
        rig.session.key("Home")
        #expect(rig.status(["layer": "shifted"]) == ["layer": "shifted"])
        rig.session.key("End")
        #expect(rig.status(["layer": "letters"]) == ["layer": "letters"])
        try tapText(" ok", on: rig.keyboard)
        #expect(app.waitFor("plain", "Hi. There ok") == "Hi. There ok")

        // A terminal: the desktop keyboard, with no capitals or smart punctuation; its keys reach the shell.
        rig.click(app.centres["terminal"]!)
        #expect(rig.status(["visible": "yes", "type": "desktop", "secure": "no", "layer": "letters"])
                == ["visible": "yes", "type": "desktop", "secure": "no", "layer": "letters"])
        // A terminal's keyboard has its bar of edit actions.
        rig.keyboard.extra += ["--terminal"]
        let desktop = try rig.keyboard.geometry(type: "desktop", layer: nil)
        for character in "ls -l" {
            rig.keyboard.tap(try #require(desktop.keys.first { $0.text == String(character) }, "\(character)"))
        }
        var typed = ""
        _ = waitUntil { typed = (try? String(contentsOf: typedInTerminal, encoding: .utf8)) ?? ""; return typed == "ls -l" }
        #expect(typed == "ls -l")

        rig.finish()
        // ... and off again at exit, as it was found.
        #expect(rig.bus.accessibilityEnabled() == false)
    }

    /// A Qt 5 window, which speaks to the accessibility bus only because the keyboard turned the session's
    /// accessibility on: its line edit shows the keyboard, its password line edit a secure one.
    @Test func theKeyboardFollowsTheFocusOfAQtWindow() throws {
        let rig = try AutoShowRig()
        defer { rig.stop() }
        #expect(waitUntil { rig.bus.accessibilityEnabled() == true })
        let app = try FieldsWindow(session: rig.session, environment: rig.bus.environment, script: "qt-fields.py", widgets: 3)
        rig.click(app.centres["button"]!)
        #expect(rig.status(["visible": "no"]) == ["visible": "no"])
        rig.click(app.centres["password"]!)
        #expect(rig.status(["visible": "yes", "secure": "yes"]) == ["visible": "yes", "secure": "yes"])
        try tapText("ab  c", on: rig.keyboard)
        #expect(app.waitFor("password", "ab  c") == "ab  c")
        rig.click(app.centres["plain"]!)
        #expect(rig.status(["visible": "yes", "secure": "no"]) == ["visible": "yes", "secure": "no"])
        try tapText("hi", on: rig.keyboard)
        #expect(app.waitFor("plain", "Hi") == "Hi")
        rig.finish()
    }

    /// Firefox ESR in kiosk mode on the page of inputs (its window's class instance is Navigator).
    @Test func theKeyboardFollowsTheFocusInFirefox() throws {
        let rig = try AutoShowRig()
        defer { rig.stop() }
        try Self.startFirefox(rig)
        try followTheFocusInABrowser(rig, padType: "decimal-pad") { rig.session.title(of: "Navigator") }
    }

    /// Firefox on a touchscreen (Xorg's inputtest devices): an input touched shows the keyboard with its
    /// type, one clicked with the mouse does not, as with `--auto-show touch`, the default there.
    @Test func firefoxFieldsShowTheKeyboardForTouch() throws {
        let rig = try AutoShowRig(session: try XSession(realInput: true))
        defer { rig.stop() }
        let devices = try #require(rig.session.inputDevices)
        #expect(rig.status(["auto-show": "touch"]) == ["auto-show": "touch"])
        try Self.startFirefox(rig)
        func field(_ index: Int) -> (x: Int, y: Int) { (170, 35 + 50 * index) }
        // The browser speaks once a touch on the page's button hides the keyboard.
        var ready = false
        for _ in 0..<30 where !ready {
            devices.tap(x: field(8).x, y: field(8).y)
            ready = rig.status(["visible": "no"], timeout: 1) == ["visible": "no"]
        }
        #expect(ready, "the keyboard did not hide for the browser's button")
        usleep(1_500_000)
        // The email input clicked with the mouse: chosen for, not shown.
        devices.click(x: field(1).x, y: field(1).y)
        usleep(1_000_000)
        #expect(rig.status()["visible"] == "no", "a click showed the keyboard")
        // The url input touched: shown, with its keyboard.
        let url = ["visible": "yes", "type": "url"]
        // A touch the browser was too busy to take is touched again, as a person would.
        for _ in 0..<3 where rig.status(url, timeout: 3) != url { devices.tap(x: field(2).x, y: field(2).y) }
        #expect(rig.status(url) == url)
        rig.finish()
    }

    /// Chromium in kiosk mode on the page of inputs: it speaks to the accessibility bus when started with
    /// --force-renderer-accessibility (as the README says); --no-sandbox as the tests may run as root.
    @Test func theKeyboardFollowsTheFocusInChromium() throws {
        let rig = try AutoShowRig()
        defer { rig.stop() }
        let profile = rig.session.directory.appendingPathComponent("chromium-profile")
        try rig.session.start("/usr/bin/chromium", ["--kiosk", "--force-renderer-accessibility", "--no-first-run",
                                                   "--no-default-browser-check", "--no-sandbox", "--disable-gpu",
                                                   "--password-store=basic", "--user-data-dir=" + profile.path, Self.page],
                              environment: Self.browserEnvironment(rig))
        // Chromium does not say a number input's step: its decimal input gets the number pad.
        try followTheFocusInABrowser(rig, padType: "number-pad") { rig.session.title(ofClass: "Chromium") }
    }

    static let page = "file://" + packageRoot + "/Tests/Fixtures/fields.html"

    /// Firefox ESR in kiosk mode on the page of inputs, with a profile of the session's own that asks nothing.
    static func startFirefox(_ rig: AutoShowRig) throws {
        let profile = rig.session.directory.appendingPathComponent("firefox-profile")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        try """
            user_pref("browser.shell.checkDefaultBrowser", false);
            user_pref("datareporting.policy.dataSubmissionEnabled", false);
            user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
            user_pref("browser.aboutwelcome.enabled", false);
            user_pref("browser.startup.homepage_override.mstone", "ignore");
            user_pref("app.update.enabled", false);
            """.write(to: profile.appendingPathComponent("user.js"), atomically: true, encoding: .utf8)
        try rig.session.start("/usr/bin/firefox-esr", ["--kiosk", "--no-remote", "--profile", profile.path, Self.page],
                              environment: Self.browserEnvironment(rig))
    }

    static func browserEnvironment(_ rig: AutoShowRig) -> [String: String] {
        var environment = rig.bus.environment
        environment["HOME"] = rig.session.directory.path
        environment["XDG_CACHE_HOME"] = rig.session.directory.appendingPathComponent("cache").path
        environment["XDG_CONFIG_HOME"] = rig.session.directory.appendingPathComponent("browser-config").path
        return environment
    }

    /// A browser in kiosk mode on a page of inputs (Tests/Fixtures/fields.html, each at a fixed place): each
    /// input type brings its keyboard and Return key (a number input of step 0.01 the `decimal` keyboard), the
    /// password input a secure one, the button hides it;
    /// the keyboard shows above the full-screen window (which openbox stacks over docks); an address tapped on
    /// the email keyboard arrives exactly (the page puts it in the window's title, which `title` reads); an
    /// input low on the page, which the keyboard would cover, is scrolled above it and typed into.
    private func followTheFocusInABrowser(_ rig: AutoShowRig, padType: String, title: () -> String?) throws {
        // The page's inputs, 300x30 at x = 20 and y = 20, 70, ...: the kiosk window's content is at 0,0.
        func field(_ index: Int) -> (x: Int, y: Int) { (170, 35 + 50 * index) }
        // The browser has started and speaks when a click on the page's button hides the keyboard.
        var ready = false
        for _ in 0..<30 where !ready {
            rig.click(field(8))
            ready = rig.status(["visible": "no"], timeout: 1) == ["visible": "no"]
        }
        #expect(ready, "the keyboard did not hide for the browser's button")
        // The page's document takes the focus a while after it loads: let that pass.
        usleep(1_500_000)
        let expected: [(type: String, returnKey: String, secure: String)] = [
            ("default", "default", "no"), ("email", "default", "no"), ("url", "default", "no"),
            ("phone-pad", "default", "no"), ("number-pad", "default", "no"), ("web-search", "search", "no"),
            ("default", "default", "yes"), ("default", "default", "no"), ("", "", ""), (padType, "default", "no"),
        ]
        for (index, want) in expected.enumerated() where !want.type.isEmpty {
            let fields = ["visible": "yes", "type": want.type, "return-key": want.returnKey, "secure": want.secure]
            // A click the browser was too busy to take is clicked again, once.
            rig.click(field(index))
            if rig.status(fields, timeout: 3) != fields { rig.click(field(index)) }
            #expect(rig.status(fields) == fields, "input \(index)")
        }
        rig.click(field(8))
        #expect(rig.status(["visible": "no"]) == ["visible": "no"])

        // Typed on the email keyboard, above the full-screen page, into the email input.
        rig.click(field(1))
        #expect(rig.status(["visible": "yes", "type": "email"]) == ["visible": "yes", "type": "email"])
        usleep(200_000)
        let email = try rig.keyboard.geometry(type: "email", layer: nil)
        for character in "me@x.io" {
            rig.keyboard.tap(try #require(email.keys.first { $0.text == String(character) }, "\(character)"))
        }
        var shown = ""
        _ = waitUntil { shown = title() ?? ""; return shown.hasPrefix("email=me@x.io ") }
        #expect(shown.hasPrefix("email=me@x.io "), "\(shown)")

        // The low input (page y 700 to 730), behind where the keyboard docks (the bottom 30% of the 800 px
        // screen): scrolled until it is above the keyboard, with the margin, then typed into.
        rig.click(field(8))
        #expect(rig.status(["visible": "no"]) == ["visible": "no"])
        rig.click((170, 715))
        #expect(rig.status(["visible": "yes", "type": "default"]) == ["visible": "yes", "type": "default"])
        let keyboardTop = rig.keyboard.frame.y
        var scrolled = 0
        _ = waitUntil {
            shown = title() ?? ""
            scrolled = shown.hasPrefix("scrolled=") ? Int(shown.dropFirst(9).prefix { $0.isNumber }) ?? 0 : 0
            return 730 - scrolled <= keyboardTop
        }
        #expect(730 - scrolled <= keyboardTop && 700 - scrolled >= 0, "\(shown), keyboard at \(keyboardTop)")
        try tapText("ok", on: rig.keyboard)
        _ = waitUntil { shown = title() ?? ""; return shown.hasPrefix("low=Ok ") }
        #expect(shown.hasPrefix("low=Ok "), "\(shown)")
        rig.finish()
    }

    /// A physical keyboard (Xephyr's keyboard device, fed by keys pressed on the session Xephyr runs in; not
    /// XTest's) hides the keyboard, and its key still types; a click into the field brings it back.
    @Test func typingOnAPhysicalKeyboardHidesItUntilTheNextClick() throws {
        let host = try XSession()
        defer { host.stop() }
        let rig = try AutoShowRig(session: try XSession(width: 1024, height: 700, nestedIn: host))
        defer { rig.stop() }
        // The host's pointer away from Xephyr's window, whose own pointer would otherwise follow it.
        host.move(x: host.width - 1, y: host.height - 1)
        let app = try FieldsWindow(session: rig.session, environment: rig.bus.environment, script: "gtk-fields.py", widgets: 5)
        rig.click(app.centres["multiline"]!)
        #expect(rig.status(["visible": "yes", "type": "default"]) == ["visible": "yes", "type": "default"])
        // Keys pressed on the host reach Xephyr's window when it has the host's focus.
        var xephyr: UInt?
        #expect(waitUntil { xephyr = host.window(classNamed: "Xephyr"); return xephyr != nil })
        if let xephyr, !host.focusedWindowFamily().contains(xephyr) { host.activate(xephyr) }
        #expect(waitUntil { xephyr.map { host.focusedWindowFamily().contains($0) } ?? false })
        host.key("q")
        #expect(app.waitFor("multiline", "q") == "q")
        #expect(rig.status(["visible": "no"]) == ["visible": "no"])
        // A click (into the next field: Xephyr's event times would make a second click into the same one a
        // double click, which selects): shown again, and the taps type on.
        rig.click(app.centres["plain"]!)
        #expect(rig.status(["visible": "yes"]) == ["visible": "yes"])
        try tapText("x", on: rig.keyboard)
        #expect(app.waitFor("plain", "X") == "X")
        #expect(app.text("multiline") == "q")
        rig.finish()
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
