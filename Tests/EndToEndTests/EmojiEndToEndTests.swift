import Foundation
import TestSupport
import Testing

/// The emoji keyboard on a live keyboard: emoji of every kind arrive as their exact code points, and the
/// emoji used and the tones chosen are kept, privately, for the next start.
@Suite(.serialized) struct EmojiEndToEndTests {
    /// An emoji chosen for the sample: the page it is on, its key, and the tone cell to choose (nil: a tap).
    struct Pick {
        var layer: String
        var key: GeometryKey
        var tone: Int?
        var typed: String { tone.map { key.alternates![$0] } ?? key.text! }
    }

    /// Fifty emoji from pages all through the keyboard, each page's most telling one: a flag with the
    /// subdivision flags' tag characters, two people of different tones (held, chosen in the grid), a ZWJ
    /// sequence, a skin tone (held, the tone chosen), a keycap, else its first.
    static func sample(_ keyboard: LiveKeyboard) throws -> [Pick] {
        let first = try keyboard.geometry(type: "emoji", layer: nil)
        let pages = first.layers.filter { $0 != "recent" && $0 != "search" }
        var picks: [Pick] = []
        for (index, layer) in pages.enumerated() {
            let keys = try keyboard.geometry(type: "emoji", layer: layer).keys.filter { $0.text != nil }
            let pick = keys.first { $0.text!.unicodeScalars.contains("\u{E0067}") }
                ?? keys.first { ($0.alternates?.count ?? 0) > 12 }
                ?? keys.first { $0.text!.unicodeScalars.contains("\u{200D}") && $0.text!.unicodeScalars.count >= 5 }
                ?? keys.first { $0.alternates != nil }
                ?? keys.first { $0.text!.unicodeScalars.contains("\u{20E3}") }
                ?? keys[index % keys.count]
            // Two people's grid: a cell of two different tones.
            let mixed = [1, 7, 13, 19, 23]
            picks.append(Pick(layer: layer, key: pick, tone: pick.alternates.map {
                $0.count > 12 ? mixed[index % mixed.count] : (index % ($0.count - 1)) + 1
            }))
        }
        // Fifty of them: pages left out evenly from the long groups, never a flag's.
        var index = 3
        while picks.count > 50 {
            if index >= picks.count { index = 1 }
            if picks[index].layer.hasPrefix("flags") || (picks[index].key.alternates?.count ?? 0) > 12 { index += 1 } else {
                picks.remove(at: index)
                index += 6
            }
        }
        return picks
    }

    /// Walks the pages with the next-page key from the first, and types each pick on its page.
    static func type(_ picks: [Pick], on keyboard: LiveKeyboard) throws {
        let first = try keyboard.geometry(type: "emoji", layer: nil)
        var layer = first.layer
        for pick in picks {
            while layer != pick.layer {
                let shown = try keyboard.geometry(type: "emoji", layer: layer)
                let next = try #require(shown.keys.first { $0.label == "›" })
                keyboard.tap(next)
                layer = String(next.action!.dropFirst("layer:".count))
                if layer == "recent" { keyboard.tap(next); layer = first.layer }
            }
            if let tone = pick.tone {
                keyboard.holdAndChoose(pick.key, alternate: tone, cells: pick.key.alternates!.count)
            } else {
                keyboard.tap(pick.key)
            }
        }
    }

    /// A sample of fifty emoji, among them ZWJ sequences, flags, keycaps and skin tones, tapped and held on
    /// the live emoji keyboard, arrives in a GTK entry code point for code point; the recent emoji are kept
    /// in a file only the user can read.
    @Test func fiftyEmojiArriveExactlyInAGtkEntry() throws {
        let session = try XSession()
        defer { session.stop() }
        let bus = try SessionBus(session: session)
        defer { bus.stop() }
        let app = try FieldsWindow.focusedGtkEntry(session: session, bus: bus)
        let keymapBefore = try session.keymapDump()
        let keyboard = try LiveKeyboard(session: session, arguments: ["--keyboards", "default,emoji", "--type", "emoji"])
        let picks = try Self.sample(keyboard)
        #expect(picks.count == 50)
        let typed = picks.map(\.typed)
        func has(_ test: (Unicode.Scalar) -> Bool) -> Bool { typed.contains { $0.unicodeScalars.contains(where: test) } }
        #expect(has { $0 == "\u{200D}" } && has { $0 == "\u{20E3}" } && has { (0x1F1E6...0x1F1FF).contains($0.value) }
                && has { (0x1F3FB...0x1F3FF).contains($0.value) } && has { $0 == "\u{E0067}" }, "\(typed)")
        // Two different tones in one emoji.
        #expect(typed.contains { Set($0.unicodeScalars.filter { (0x1F3FB...0x1F3FF).contains($0.value) }).count == 2 }, "\(typed)")
        try Self.type(picks, on: keyboard)
        let expected = typed.joined()
        let arrived = app.waitFor("plain", expected)
        if arrived != expected {
            let got = Array((arrived ?? "").unicodeScalars), wanted = Array(expected.unicodeScalars)
            let common = zip(got, wanted).prefix { $0 == $1 }.count
            Issue.record("the entry differs from scalar \(common): got \(got.dropFirst(common).prefix(12).map { String($0.value, radix: 16) }), expected \(wanted.dropFirst(common).prefix(12).map { String($0.value, radix: 16) })")
        }
        let (code, messages) = keyboard.terminate()
        #expect(code == 0, "\(messages)")
        #expect(try session.keymapDump() == keymapBefore)
        #expect(session.keysDown().isEmpty)
        // The recent emoji, the latest first, and the tones chosen: the user's alone.
        let kept = session.stateDirectory.appendingPathComponent("keypane/emoji")
        let memory = try String(contentsOf: kept, encoding: .utf8)
        let recent = memory.split(separator: "\n").first.map { $0.split(separator: " ").dropFirst().map(String.init) } ?? []
        #expect(recent.first == typed.last && recent.count == min(Set(typed).count, 36))
        let mode = try FileManager.default.attributesOfItem(atPath: kept.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// The person of issue 18: German and Russian keymaps bring German and Russian keyboards and the emoji
    /// keyboard; "Grüße, мир 👋🏽" (ß and the tone held, the Globe key between them) arrives in a terminal.
    /// The next start shows the emoji typed first, with the tone chosen.
    @Test func aGreetingInThreeKeyboardsArrivesInATerminal() throws {
        let session = try XSession()
        defer { session.stop() }
        #expect(try session.run("/usr/bin/setxkbmap", ["-layout", "de,ru"]).status == 0)
        defer { _ = try? session.run("/usr/bin/setxkbmap", ["us"]) }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, environment: ["LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": ""])
        let status = { ControlEndToEndTests.fields(try session.run(keypanePath, ["status"]).output) }
        // The emoji keyboard joins once the first frame is out; the control socket opens after it.
        #expect(waitUntil { (try? status()["keyboards"]) == "de,ru,emoji,desktop" })
        let german = try keyboard.geometry(type: "de", layer: "letters")
        keyboard.tap(try #require(german.key(action: "shift")))
        for letter in ["g", "r", "ü"] { keyboard.tap(try #require(german.key(label: letter), "\(letter)")) }
        keyboard.holdAndChoose(try #require(german.key(label: "s")), alternate: 1, cells: 4)
        for letter in ["e", ",", " "] { keyboard.tap(try #require(german.keys.first { $0.text == letter }, "\(letter)")) }
        keyboard.tap(try #require(german.key(action: "globe")))
        #expect(waitUntil { (try? status()["type"]) == "ru" })
        let russian = try keyboard.geometry(type: "ru", layer: "letters")
        for letter in ["м", "и", "р", " "] { keyboard.tap(try #require(russian.keys.first { $0.text == letter }, "\(letter)")) }
        keyboard.tap(try #require(russian.key(action: "globe")))
        #expect(waitUntil { (try? status()["type"]) == "emoji" })
        let pages = try keyboard.geometry(type: "emoji", layer: nil).layers
        var wave: (layer: String, key: GeometryKey)?
        for layer in pages where wave == nil {
            if let key = try keyboard.geometry(type: "emoji", layer: layer).keys.first(where: { $0.text == "👋" }) { wave = (layer, key) }
        }
        let (layer, key) = try #require(wave)
        keyboard.tap(try #require(try keyboard.geometry(type: "emoji", layer: nil).keys.first { $0.action == "layer:\(layer)" }
                                   ?? keyboard.geometry(type: "emoji", layer: nil).keys.first { $0.action == "layer:smileys" }))
        if try keyboard.geometry(type: "emoji", layer: "smileys").keys.first(where: { $0.text == "👋" }) == nil {
            var shown = "smileys"
            while shown != layer {
                let next = try #require(try keyboard.geometry(type: "emoji", layer: shown).keys.first { $0.label == "›" })
                keyboard.tap(next)
                shown = String(next.action!.dropFirst("layer:".count))
            }
        }
        keyboard.holdAndChoose(key, alternate: 3, cells: 6)
        expectArrived(terminal, "Grüße, мир 👋🏽", "the greeting")
        #expect(keyboard.terminate().0 == 0)
        let kept = try String(contentsOf: session.stateDirectory.appendingPathComponent("keypane/emoji"), encoding: .utf8)
        #expect(kept == "recent 👋🏽\ntone 👋 👋🏽\n")
    }

    /// By default the emoji keyboard is in the Globe key's cycle from the start, but its list is read only
    /// when first wanted: `keypane set --type emoji` shows it at once, filled, and its emoji type; the list
    /// not read yet, the keyboard kept nothing of it.
    @Test func theEmojiKeyboardIsReadWhenFirstWanted() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--languages", "en-US"])
        #expect(waitUntil { (try? ControlEndToEndTests.status(session)["keyboards"]) == "default,emoji,desktop" })
        #expect(try session.run(keypanePath, ["set", "--type", "emoji"]).status == 0)
        #expect(try ControlEndToEndTests.status(session)["type"] == "emoji")
        let page = try keyboard.geometry(type: "emoji", layer: nil)
        let grin = try #require(page.keys.first { $0.text == "😀" })
        keyboard.tap(grin)
        expectArrived(terminal, "😀", "the first emoji of a list read when wanted")
        let (code, messages) = keyboard.terminate()
        #expect(code == 0 && messages.isEmpty, "\(messages)")
        let kept = try String(contentsOf: session.stateDirectory.appendingPathComponent("keypane/emoji"), encoding: .utf8)
        #expect(kept.hasPrefix("recent 😀"))
    }

    /// A quick tap on the Globe key by a person new to emoji: the first page is drawn from a few lines of the
    /// list while the whole list is read, and the keyboard shown has every group (the animals' page types).
    @Test func aQuickGlobeTapShowsTheWholeEmojiKeyboard() throws {
        let session = try XSession()
        defer { session.stop() }
        let terminal = try Terminal(session: session)
        let keyboard = try LiveKeyboard(session: session, arguments: ["--languages", "en-US"])
        #expect(waitUntil { (try? ControlEndToEndTests.status(session)["keyboards"]) == "default,emoji,desktop" })
        let globe = try #require(try keyboard.geometry(type: "default", layer: nil).key(action: "globe"))
        keyboard.tap(globe, hold: 0.02)
        #expect(waitUntil { (try? ControlEndToEndTests.status(session)["type"]) == "emoji" })
        let animals = try #require(try keyboard.geometry(type: "emoji", layer: nil).key(label: "🐻"))
        keyboard.tap(animals)
        let first = try #require(try keyboard.geometry(type: "emoji", layer: "animals").keys.first { $0.text != nil })
        keyboard.tap(first)
        expectArrived(terminal, first.text!, "the animals' first emoji, after a quick Globe tap")
        let (code, messages) = keyboard.terminate()
        #expect(code == 0 && messages.isEmpty, "\(messages)")
    }
}
