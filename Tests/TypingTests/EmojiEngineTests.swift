import KeyboardModel
import TestSupport
import Testing
import Typing

/// The emoji keyboard in the engine, with a few emoji of the test fixture.
@Suite struct EmojiEngineTests {
    func harness(_ enabled: [String] = ["default", "desktop"], traits: TextTraits.Overrides = .none) throws -> Harness {
        var k = try Harness(enabled, traits: traits)
        k.engine.addEmoji(EmojiBoard(catalog: try fixtureCatalog()))
        return k
    }

    mutating func showEmoji(_ k: inout Harness) {
        k.engine.select(keyboard: k.engine.enabled.firstIndex(of: "emoji")!)
    }

    @Test func itJoinsTheGlobeKeysKeyboardsBeforeTheDesktopOne() throws {
        var k = try harness()
        #expect(k.engine.enabled == ["default", "emoji", "desktop"] && k.engine.current == 0)
        #expect(k.engine.library["emoji"]?.title == "Emoji")
        // With one keyboard, the Globe key appears with the emoji keyboard.
        var single = try Harness(["default"])
        #expect(!single.engine.geometry.keys.contains { $0.function == .globe })
        single.engine.addEmoji(EmojiBoard(catalog: try fixtureCatalog()))
        #expect(single.engine.geometry.keys.contains { $0.function == .globe })
        k.send(.began, "globe")
        k.wait(0.5)
        guard case .keyboards(_, let titles, _)? = k.engine.state.popups.last else { Issue.record("no list"); return }
        #expect(titles == ["English (US)", "Emoji", "Desktop"] || titles.contains("Emoji"))
    }

    @Test func anEmojiTypesItsCodePointsAndGoesFirstInRecent() throws {
        var k = try harness()
        var s = self
        s.showEmoji(&k)
        #expect(k.engine.layer == "smileys")
        k.tap("👨‍👩‍👧")
        #expect(k.typed() == [.text("👨‍👩‍👧")])
        #expect(k.engine.emoji?.recent == ["👨‍👩‍👧"])
        k.tap("🕘")
        #expect(k.engine.layer == "recent")
        #expect(k.engine.geometry.keys.contains { $0.function == .text("👨‍👩‍👧") })
        // ABC: back to the letters.
        k.tap("ABC")
        #expect(k.typed() == [.selectKeyboard(0)])
    }

    @Test func heldAnEmojiOffersItsTonesAndKeepsTheChoice() throws {
        var k = try harness()
        var s = self
        s.showEmoji(&k)
        k.send(.began, "👋")
        k.wait(0.5)
        guard case .alternates(_, let options, _)? = k.engine.state.popups.last else { Issue.record("no tones"); return }
        #expect(options == ["👋", "👋🏻", "👋🏽"])
        let rect = PopupLayout.rect(for: k.engine.state.popups.last!, in: k.engine.geometry)
        let cell = Double(rect.width) / Double(options.count)
        k.send(.moved, x: Double(rect.x) + cell * 2.5, y: Double(rect.y) + 5)
        let update = k.send(.ended, x: Double(rect.x) + cell * 2.5, y: Double(rect.y) + 5)
        #expect(k.typed() == [.text("👋🏽")])
        #expect(update.emojiMemoryChanged)
        // The key now types the tone chosen.
        k.tap("👋🏽")
        #expect(k.typed() == [.text("👋🏽")])
        #expect(!k.engine.geometry.keys.contains { $0.label == "👋" })
    }

    @Test func aPasswordFieldsEmojiAreNotKept() throws {
        var k = try harness(traits: TextTraits.Overrides(secureEntry: true))
        var s = self
        s.showEmoji(&k)
        let update = k.send(.began, "😀")
        _ = update
        k.send(.ended, "😀")
        #expect(k.typed() == [.text("😀")])
        #expect(k.engine.emoji?.recent == [])
    }

    @Test func theSearchTypesIntoTheQueryNotTheField() throws {
        var k = try harness()
        var s = self
        s.showEmoji(&k)
        k.tap("🔍")
        #expect(k.engine.layer == "search")
        for letter in ["w", "a", "v", "x"] { k.tap(letter) }
        k.tap("delete")
        #expect(k.typed().isEmpty, "the letters are the search's")
        #expect(k.engine.emoji?.query == "wav")
        #expect(k.engine.geometry.keys.contains { $0.label == "🔍 wav" })
        k.tap("👋")
        #expect(k.typed() == [.text("👋")])
        k.tap("😀")
        #expect(k.engine.layer == "smileys")
    }

    /// Two hands of different tones: held, the handshake offers its 25 forms in a grid (the left hand's
    /// tone by row, the right one's by column) and itself below them; the form chosen is typed and kept.
    @Test func heldAHandshakeOffersAGridOfBothHandsTones() throws {
        let skin = ["🏻", "🏼", "🏽", "🏾", "🏿"]
        let tones = skin.map { "🤝" + $0 }
        let pairs = (0..<25).map { (cell: Int) -> String in
            let (left, right) = (cell / 5, cell % 5)
            return left == right ? tones[left] : "🫱\(skin[left])\u{200D}🫲\(skin[right])"
        }
        let handshake = EmojiCatalog.Emoji(text: "🤝", name: "handshake", tones: tones, pairs: pairs)
        let catalog = EmojiCatalog(groups: [.init(id: "smileys", tab: "😀", emoji: [handshake])])
        var k = try Harness(["default"])
        k.engine.addEmoji(EmojiBoard(catalog: catalog))
        k.engine.select(keyboard: k.engine.enabled.firstIndex(of: "emoji")!)
        k.send(.began, "🤝")
        k.wait(0.5)
        let popup = try #require(k.engine.state.popups.last)
        guard case .alternates(_, let options, let selected) = popup else { Issue.record("no grid: \(popup)"); return }
        #expect(options == pairs + ["🤝"] && selected == 25, "the finger starts on the handshake itself")
        let grid = PopupLayout.grid(options.count)
        #expect(grid.columns == 5 && grid.rows == 6)
        let rect = PopupLayout.rect(for: popup, in: k.engine.geometry)
        #expect(rect.height > rect.width * 6 / 5 - 5, "six rows of five: taller than wide")
        // Row 0 (a light left hand), column 4 (a dark right hand).
        let (cell, row) = (Double(rect.width) / 5, Double(rect.height) / 6)
        let point = (x: Double(rect.x) + cell * 4.5, y: Double(rect.y) + row * 0.5)
        k.send(.moved, x: point.x, y: point.y)
        guard case .alternates(_, _, 4)? = k.engine.state.popups.last else { Issue.record("\(k.engine.state.popups)"); return }
        k.send(.ended, x: point.x, y: point.y)
        #expect(k.typed() == [.text("🫱🏻‍🫲🏿")])
        #expect(k.engine.emoji?.tones["🤝"] == "🫱🏻‍🫲🏿")
        #expect(k.engine.geometry.keys.contains { $0.function == .text("🫱🏻‍🫲🏿") }, "the key shows the form chosen")
    }
}
