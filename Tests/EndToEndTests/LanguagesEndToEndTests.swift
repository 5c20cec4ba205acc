import Foundation
import TestSupport
import Testing

/// Keyboards for languages: chosen by --languages, else by the X keymap's layouts and the locale; every key
/// of each arrives as it reads, whatever the keymap.
@Suite(.serialized) struct LanguagesEndToEndTests {
    /// Every key of every layer of a language's keyboard arrives in xterm byte for byte: in the compact
    /// width under the US keymap, in the regular width under the language's own; the keymap after each
    /// keyboard's exit is the one before it.
    @Test(arguments: [("en-gb", "gb"), ("de", "de"), ("fr", "fr"), ("es", "es"), ("it", "it"), ("pt-br", "br"),
                      ("nl", "nl"), ("sv", "se"), ("da", "dk"), ("nb", "no"), ("pl", "pl"), ("ru", "ru"), ("uk", "ua"),
                      ("el", "gr"), ("tr", "tr")])
    func everyKeyOfALanguageArrives(language: String, ownKeymap: String) throws {
        let session = try XSession(width: 1920, height: 1920)
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        var expected = ""
        for (keymap, size) in [("us", (600, 900)), (ownKeymap, (1280, 800))] {
            #expect(try session.run("/usr/bin/setxkbmap", [keymap]).status == 0)
            try session.setScreenSize(width: size.0, height: size.1)
            let keymapBefore = try session.keymapDump()
            let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", language, "--height", "320"])
            #expect(keyboard.frame.width == size.0)
            expected += try tapEveryTextKey(keyboard, type: language)
            expectArrived(terminal, expected, "\(language) under the \(keymap) keymap at \(size.0)x\(size.1)")
            #expect(keyboard.terminate().0 == 0)
            #expect(try session.keymapDump() == keymapBefore, "\(language) under \(keymap): the keymap changed")
        }
        #expect(session.keysDown().isEmpty)
    }

    /// Smart quotes type the language's marks: „…“ on the German keyboard, « … » on the French one.
    @Test func smartQuotesAreTheLanguages() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        var expected = ""
        for (language, marks) in [("de", ("„", "“")), ("fr", ("«\u{202F}", "\u{202F}»"))] {
            let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", language, "--autocapitalization", "none"],
                                            plainText: false)
            let letters = try keyboard.geometry(type: language, layer: "letters")
            let numbers = try keyboard.geometry(type: language, layer: "numbers")
            keyboard.tap(try #require(letters.key(action: "layer:numbers")))
            keyboard.tap(try #require(numbers.key(label: "\"")))
            keyboard.tap(try #require(numbers.key(action: "layer:letters")))
            for letter in ["j", "a"] { keyboard.tap(try #require(letters.key(label: letter))) }
            keyboard.tap(try #require(letters.key(action: "layer:numbers")))
            keyboard.tap(try #require(numbers.key(label: "\"")))
            expected += marks.0 + "ja" + marks.1
            expectArrived(terminal, expected, "smart quotes on the \(language) keyboard")
            #expect(keyboard.terminate().0 == 0)
        }
    }

    /// The language chosen with the Globe key is the one the next start shows; --type still wins, and a
    /// remembered keyboard that is no longer enabled is passed over.
    @Test func theLanguageChosenIsRemembered() throws {
        let session = try XSession()
        defer { session.stop() }
        let status = { ControlEndToEndTests.fields(try session.run(keypanePath, ["status"]).output) }
        let first = try LiveKeyboard(session: session, arguments: ["--languages", "de,ru"])
        #expect(try status()["type"] == "de")
        first.tap(try #require(try first.geometry(type: "de", layer: nil).key(action: "globe")))
        #expect(waitUntil { (try? status()["type"]) == "ru" })
        #expect(first.terminate().0 == 0)
        let kept = session.stateDirectory.appendingPathComponent("keypane/language")
        #expect(try String(contentsOf: kept, encoding: .utf8) == "ru\n")

        let second = try LiveKeyboard(session: session, arguments: ["--languages", "de,ru"])
        #expect(try status()["type"] == "ru")
        #expect(second.terminate().0 == 0)
        let typed = try LiveKeyboard(session: session, arguments: ["--languages", "de,ru", "--type", "de"])
        #expect(try status()["type"] == "de")
        #expect(typed.terminate().0 == 0)
        let other = try LiveKeyboard(session: session, arguments: ["--languages", "fr,de"])
        #expect(try status()["type"] == "fr")
        #expect(other.terminate().0 == 0)
    }

    /// Every key of every layer of every language's keyboard arrives in a GTK entry too, under the US
    /// keymap (the letters it lacks come through spare keycodes, which GTK must follow as they change).
    @Test func everyKeyOfEveryLanguageArrivesInAGtkEntry() throws {
        let session = try XSession()
        defer { session.stop() }
        let bus = try SessionBus(session: session)
        defer { bus.stop() }
        // The entry takes the focus once; each keyboard, never focused, types into it where its text ends.
        let app = try FieldsWindow.focusedGtkEntry(session: session, bus: bus)
        var expected = ""
        for language in languageLayouts {
            let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", language])
            expected += try tapEveryTextKey(keyboard, type: language)
            let arrived = app.waitFor("plain", expected)
            #expect(arrived == expected, "\(language): the entry holds \(arrived?.suffix(40).debugDescription ?? "nothing")")
            #expect(keyboard.terminate().0 == 0)
            if arrived != expected { break }
        }
    }

    /// A GTK text field focused while German is the language gets the German keyboard, not the English
    /// one; "Grüße" (ß held on s) and, after the Globe key, "мир" arrive in the field.
    @Test func aFieldIsTypedInTheLanguageShown() throws {
        let rig = try AutoShowRig(arguments: ["--languages", "de,ru"])
        defer { rig.stop() }
        rig.keyboard.extra = []
        let app = try FieldsWindow(session: rig.session, environment: rig.bus.environment, script: "gtk-fields.py",
                                   widgets: 5, arguments: [rig.session.directory.appendingPathComponent("t.out").path])
        rig.click(app.centres["plain"]!)
        #expect(rig.status(["visible": "yes", "type": "de"]) == ["visible": "yes", "type": "de"])
        let german = try rig.keyboard.geometry(type: "de", layer: "letters")
        for letter in ["g", "r", "ü"] { rig.keyboard.tap(try #require(german.key(label: letter), "\(letter)")) }
        rig.keyboard.holdAndChoose(try #require(german.key(label: "s")), alternate: 1, cells: 4)
        for letter in ["e", " "] { rig.keyboard.tap(try #require(german.keys.first { $0.text == letter }, "\(letter)")) }
        rig.keyboard.tap(try #require(german.key(action: "globe")))
        #expect(rig.status(["type": "ru"]) == ["type": "ru"])
        let russian = try rig.keyboard.geometry(type: "ru", layer: "letters")
        for letter in ["м", "и", "р"] { rig.keyboard.tap(try #require(russian.key(label: letter), "\(letter)")) }
        #expect(app.waitFor("plain", "Grüße мир") == "Grüße мир")
    }

    /// With no --keyboards, the keymap's layouts (setxkbmap -layout de,ru) bring their languages'
    /// keyboards, then the desktop one; --languages names them instead, and a language without a keyboard
    /// is said and left out; a tag that is not one stops the start with its name.
    @Test func theKeymapsLanguagesBringTheirKeyboards() throws {
        let session = try XSession()
        defer { session.stop() }
        #expect(try session.run("/usr/bin/setxkbmap", ["-layout", "de,ru"]).status == 0)
        let found = try LiveKeyboard(session: session, environment: ["LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": ""])
        // The emoji keyboard joins once the first frame is out; the control socket opens after it.
        let statusNow = { ControlEndToEndTests.fields((try? session.run(keypanePath, ["status"]).output) ?? "") }
        _ = waitUntil { statusNow()["keyboards"] != nil }
        var status = statusNow()
        #expect(status["keyboards"] == "de,ru,emoji,desktop" && status["type"] == "de", "\(status)")
        #expect(found.terminate().0 == 0)

        let named = try LiveKeyboard(session: session, arguments: ["--languages", "fr,ja,en_us"])
        _ = waitUntil { statusNow()["keyboards"] != nil }
        status = statusNow()
        #expect(status["keyboards"] == "fr,default,emoji,desktop", "\(status)")
        let (code, messages) = named.terminate()
        #expect(code == 0)
        #expect(messages.contains("keypane: no keyboard for the language 'ja' in --languages (there are keyboards for en-US, da, de, el, en-GB, es, fr, it, nb, nl, pl, pt-BR, ru, sv, tr, uk); left out"),
                "\(messages)")

        let refused = try session.run(keypanePath, ["--languages", "de,d3"])
        #expect(refused.status != 0 && refused.errors.contains("bad language 'd3' in --languages"), "\(refused.errors)")
        #expect(try session.run("/usr/bin/setxkbmap", ["us"]).status == 0)
    }
}
