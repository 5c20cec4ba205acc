import KeyboardModel
import TestSupport
import Testing
import Typing

/// The settings panel as a layout the engine shows: the Globe list's entry that opens it, rows that open
/// pages or change their setting, and the values each row shows.
@Suite struct SettingsPanelTests {
    /// The Globe key's list holds English and emoji; German, French and the number pad may join it.
    static let keyboards: [(name: String, title: String)] = [("default", "English (US)"), ("emoji", "Emoji"),
                                                              ("de", "Deutsch"), ("fr", "Français"), ("number-pad", "Number pad")]
    static let inList = ["keyboard:default": "on", "keyboard:emoji": "on"]

    static func panel(_ values: [String: String] = [:], locked: Set<String> = [],
                      words: PanelWords = .english) -> SettingsPanel {
        SettingsPanel(values: inList.merging(values) { $1 }, locked: locked, keyboards: keyboards, words: words)
    }

    /// An engine showing the panel, as the keyboard's settings controller makes it.
    static func panelHarness(_ panel: SettingsPanel = panel(), width: Int = 375) throws -> Harness {
        var library = LayoutLibrary()
        library.add(panel.layout())
        var k = try Harness(["default"], width: width)
        k.engine = try TypingEngine(library: library, enabled: [SettingsPanel.name], width: width, height: 260)
        return k
    }

    @Test func theGlobeListEndsWithKeyboardSettings() throws {
        var k = try Harness(["default", "desktop"])
        k.engine.settingsInList = true
        k.send(.began, "globe")
        k.wait(0.6)
        guard case .keyboards(_, let titles, _)? = k.engine.state.popups.first else {
            Issue.record("no Globe list")
            return
        }
        #expect(titles.last == "Keyboard Settings")
        // Slid to the last entry and let go: the panel opens; no keyboard is chosen.
        let rect = PopupLayout.rect(for: k.engine.state.popups[0], in: k.engine.geometry)
        let row = Double(rect.height) / Double(titles.count)
        k.send(.moved, x: Double(rect.x) + 10, y: Double(rect.y) + row * (Double(titles.count) - 0.5))
        k.send(.ended, x: Double(rect.x) + 10, y: Double(rect.y) + row * (Double(titles.count) - 0.5))
        #expect(k.typed() == [.openSettings])
    }

    @Test func withoutThePanelTheListHasNoSettingsEntry() throws {
        var k = try Harness(["default", "desktop"])
        k.send(.began, "globe")
        k.wait(0.6)
        guard case .keyboards(_, let titles, _)? = k.engine.state.popups.first else {
            Issue.record("no Globe list")
            return
        }
        #expect(!titles.contains("Keyboard Settings"))
    }

    @Test func aPageRowOpensItsPageAndBackReturns() throws {
        var k = try Self.panelHarness()
        #expect(k.engine.layer == "settings")
        k.tap("Look and Size")
        #expect(k.engine.layer == "look")
        #expect(k.typed().isEmpty)
        #expect(k.engine.geometry.keys.map(\.name).contains("Theme"))
        k.tap("‹ Settings")
        #expect(k.engine.layer == "settings")
    }

    @Test func aSettingRowAsksForItsChangeAndDoneCloses() throws {
        var k = try Self.panelHarness()
        k.tap("Sound")
        k.tap("Input Click")
        guard case .changeSetting(let row)? = k.typed().first else {
            Issue.record("no change asked for")
            return
        }
        #expect(row.name == "sound")
        k.tap("Done")
        #expect(k.typed() == [.closeSettings])
    }

    @Test func switchesFlipAndChoicesCycle() {
        let panel = Self.panel(["sound": "on", "theme": "light"])
        let sound = panel.row(named: "sound")!, theme = panel.row(named: "theme")!, height = panel.row(named: "height")!
        #expect(panel.shownValue(of: sound) == "On")
        #expect(panel.nextValue(of: sound) == .some("off"))
        #expect(panel.nextValue(of: theme) == .some("dark"))
        #expect(Self.panel(["theme": "high-contrast-dark"]).nextValue(of: theme) == .some("desktop"))
        #expect(Self.panel(["theme": "desktop"]).nextValue(of: theme) == .some("light"))
        // A choice whose default is no line at all: the next is the first value, and after the last, none.
        #expect(panel.shownValue(of: height) == "Standard")
        #expect(panel.nextValue(of: height) == .some("40%"))
        #expect(Self.panel(["height": "30%"]).nextValue(of: height) == .some(nil))
        // A switch missing from the values shows its default.
        #expect(panel.shownValue(of: panel.row(named: "floating")!) == "Off")
        #expect(panel.shownValue(of: panel.row(named: "slide-to-type")!) == "On")
    }

    @Test func aLockedRowShowsItsValueAndCannotChange() {
        let panel = Self.panel(["theme": "dark"], locked: ["theme"])
        let theme = panel.row(named: "theme")!
        #expect(panel.nextValue(of: theme) == nil)
        let key = panel.layout().rows(layer: "look", widthClass: .compact).flatMap(\.items).compactMap { item -> KeySpec? in
            if case .key(let key) = item, case .setting(let row) = key.function, row.name == "theme" { return key }
            return nil
        }.first
        guard case .setting(let row)? = key?.function else {
            Issue.record("no theme row")
            return
        }
        #expect(row.locked && row.detail == "Set by the administrator")
        #expect(key?.secondary == "Dark")
    }

    /// The Globe key's list first, in its order, each after the first with a key that moves it up; then
    /// the keyboards that may join it, languages before keyboard types.
    @Test func theKeyboardsPageListsTheGlobeListInOrderWithMoveKeys() throws {
        let panel = Self.panel()
        let rows = panel.layout().rows(layer: "keyboards", widthClass: .compact).map { row in
            row.items.compactMap { item -> String? in
                if case .key(let key) = item, case .setting(let row) = key.function { return row.name }
                return nil
            }
        }
        #expect(rows.prefix(4) == [["keyboard:default"], ["keyboard:emoji", "move:emoji"], ["keyboard:de"], ["keyboard:fr"]])
        #expect(panel.shownValue(of: panel.row(named: "keyboard:emoji")!) == "On")
        #expect(panel.row(named: "keyboard:de")?.detail == "Not in the Globe key's list")
        var k = try Self.panelHarness(panel)
        k.tap("Keyboards")
        k.tap("↑")
        guard case .changeSetting(let move)? = k.typed().first else {
            Issue.record("the move key asks for nothing")
            return
        }
        #expect(move.movedKeyboard == "emoji")
        k.tap("Deutsch")
        guard case .changeSetting(let german)? = k.typed().first else {
            Issue.record("the keyboard's row asks for nothing")
            return
        }
        #expect(german.keyboard == "de")
        // Locked by the administrator: greyed, and nothing moves.
        let locked = Self.panel(locked: ["keyboards"])
        #expect(locked.isLocked(locked.row(named: "keyboard:de")!) && locked.nextValue(of: locked.row(named: "keyboard:de")!) == nil)
        #expect(!locked.layout().rows(layer: "keyboards", widthClass: .compact).flatMap(\.items).contains { item in
            if case .key(let key) = item, case .setting(let row) = key.function { row.movedKeyboard != nil } else { false }
        })
    }

    @Test func longPagesGoOnOverLayersThatTurn() throws {
        let panel = Self.panel()
        // Five keyboards: two layers; the typing page's ten rows: three.
        #expect(panel.layers.contains("keyboards-2") && !panel.layers.contains("keyboards-3"))
        #expect(panel.layers.contains("typing-3"))
        var k = try Self.panelHarness(panel)
        k.tap("Typing")
        #expect(k.engine.layer == "typing")
        k.tap("1/3 ›")
        #expect(k.engine.layer == "typing-2")
        k.tap("2/3 ›")
        #expect(k.engine.layer == "typing-3")
        #expect(k.engine.geometry.keys.map(\.name).contains("Long-Press Time"))
        k.tap("3/3 ›")
        #expect(k.engine.layer == "typing")
    }

    @Test func everyRowIsAsTallAsAKeyRowAndEveryPageHasDone() throws {
        let panel = Self.panel()
        for width in [375, 1024] {
            var k = try Self.panelHarness(panel, width: width)
            for layer in panel.layers {
                k.engine.showLayer(layer)
                let rows = k.engine.geometry.keys.filter { if case .setting = $0.function { true } else { false } }
                #expect(!rows.isEmpty || layer == "about", "\(layer)")
                #expect(rows.allSatisfy { $0.rect.height >= 40 }, "\(layer) at \(width)")
                // The entry's way out is Cancel, back to the replacements.
                let out: KeyFunction = layer == SettingsPanel.entryLayer ? .layer("replacements") : .closeSettings
                #expect(k.engine.geometry.keys.contains { $0.function == out }, "\(layer)")
            }
        }
    }

    @Test func scanningReachesARowAndPicksIt() throws {
        var k = try Self.panelHarness()
        k.engine.scanning = ScanSettings(mode: .step, interval: 1, idleCycles: 3)
        _ = k.engine.startScanning(at: k.now)
        var picked: [KeyAction] = []
        // Step to the row "Sound" (the fourth) and pick it: a row of one key is that key, picked at once.
        for _ in 0..<3 { _ = k.engine.scanSwitch(pick: false, at: k.now) }
        #expect(k.engine.scanHighlight == ["Sound"])
        picked += k.engine.scanSwitch(pick: true, at: k.now).actions
        picked += k.engine.scanSwitchReleased(at: k.now + 0.1).actions
        #expect(k.engine.layer == "sound")
        #expect(picked.isEmpty)
        // On the page, the first row: one pick asks for its change.
        #expect(k.engine.scanHighlight == ["Input Click"])
        picked += k.engine.scanSwitch(pick: true, at: k.now + 1).actions
        picked += k.engine.scanSwitchReleased(at: k.now + 1.05).actions
        guard case .changeSetting(let row)? = picked.first else {
            Issue.record("no change: \(picked)")
            return
        }
        #expect(row.name == "sound")
    }

    @Test func theSettingsPageIsOneOfTheLayoutsLayers() {
        #expect(SettingsPanel.page(of: "typing-2") == "typing")
        #expect(SettingsPanel.page(of: "look") == "look")
    }
}

/// Dwell reaches the settings: resting on the Globe key opens its list, resting on a cell picks it.
@Suite struct DwellListTests {
    @Test func dwellOpensTheGlobeListAndPicksKeyboardSettings() throws {
        var k = try Harness(["default", "desktop"])
        k.engine.settingsInList = true
        k.engine.timing.dwell = 0.8
        let (gx, gy) = k.centre(of: "globe")
        k.actions += k.engine.hover(x: gx, y: gy, time: k.now).actions
        k.wait(0.9)
        guard case .keyboards(_, let titles, _)? = k.engine.state.popups.first else {
            Issue.record("the dwell did not open the Globe list")
            return
        }
        #expect(k.typed().isEmpty)
        // Resting a while on the Globe key once the list is open does nothing more.
        k.actions += k.engine.hover(x: gx + 1, y: gy, time: k.now).actions
        k.wait(1)
        #expect(k.typed().isEmpty && !k.engine.state.popups.isEmpty)
        let rect = PopupLayout.rect(for: k.engine.state.popups[0], in: k.engine.geometry)
        let row = Double(rect.height) / Double(titles.count)
        // Over the first cell a moment, then the last: only the last is picked.
        k.actions += k.engine.hover(x: Double(rect.x) + 10, y: Double(rect.y) + row / 2, time: k.now).actions
        k.wait(0.4)
        k.actions += k.engine.hover(x: Double(rect.x) + 10, y: Double(rect.y) + row * (Double(titles.count) - 0.5),
                                    time: k.now).actions
        k.wait(0.5)
        #expect(k.typed().isEmpty)
        k.wait(0.4)
        #expect(k.typed() == [.openSettings])
        #expect(k.engine.state.popups.isEmpty)
    }

    @Test func leavingTheListForTheKeysClosesIt() throws {
        var k = try Harness(["default", "desktop"])
        k.engine.settingsInList = true
        k.engine.timing.dwell = 0.8
        let (gx, gy) = k.centre(of: "globe")
        _ = k.engine.hover(x: gx, y: gy, time: k.now)
        k.wait(0.9)
        #expect(!k.engine.state.popups.isEmpty)
        let (qx, qy) = k.centre(of: "q")
        _ = k.engine.hover(x: qx, y: qy, time: k.now)
        #expect(k.engine.state.popups.isEmpty)
        // The key under it fills and types as before.
        k.wait(0.9)
        #expect(k.typed() == [.text("q")])
    }
}

extension DwellListTests {
    /// Rows of one page and the next share their places in the key list: the key the pointer goes to after a
    /// page turned is dwelt on even when its index is the one just pressed on the page before.
    @Test func aDwellAfterThePageTurnedPressesTheKeyUnderThePointer() throws {
        var k = try SettingsPanelTests.panelHarness()
        k.engine.timing.dwell = 0.6
        func rest(on label: String) {
            let (x, y) = k.centre(of: label)
            k.actions += k.engine.hover(x: x, y: y, time: k.now).actions
            k.wait(0.7)
        }
        rest(on: "Sound")
        #expect(k.engine.layer == "sound")
        rest(on: "‹ Settings")
        #expect(k.engine.layer == "settings")
        // Still resting where the back key was: nothing more.
        k.wait(1)
        #expect(k.engine.layer == "settings")
        rest(on: "Look and Size")
        #expect(k.engine.layer == "look")
    }
}

/// A text replacement written in the panel: its own small keyboard types into its fields.
@Suite struct ReplacementEntryTests {
    @Test func theEntryTypesACapitalFirstAndAShortcutInLowerCase() {
        var entry = ReplacementEntry()
        for edit: EntryEdit in [.type("o"), .type("n"), .type(" "), .type("m"), .type("y"), .type(" "),
                                .type("w"), .type("a"), .type("y"), .type("!")] {
            entry.apply(edit)
        }
        #expect(entry.phrase == "On my way!")
        entry.field = .shortcut
        entry.shifted = true
        for edit: EntryEdit in [.type("o"), .type("m"), .type("w"), .type(" "), .type("!")] { entry.apply(edit) }
        #expect(entry.shortcut == "omw")
        entry.apply(.deleteBackward)
        #expect(entry.shortcut == "om")
        entry.field = .phrase
        entry.apply(.deleteBackward)
        #expect(entry.phrase == "On my way")
    }

    @Test func theEntryLayerIsThePanelsAndItsKeysAskForTheirEdits() throws {
        var panel = SettingsPanelTests.panel()
        panel.entry.phrase = "On my"
        var k = try SettingsPanelTests.panelHarness(panel)
        k.engine.showLayer(SettingsPanel.entryLayer)
        #expect(k.engine.layer == SettingsPanel.entryLayer)
        k.tap("W")
        k.tap("Save")
        #expect(k.typed() == [.editSettingsEntry(.type("w")), .editSettingsEntry(.save)])
        k.tap("Phrase")
        guard case .changeSetting(let row)? = k.typed().first else {
            Issue.record("the field row asks for nothing")
            return
        }
        #expect(row.name == "entry-field:phrase" && row.detail == "On my|")
    }

    @Test func replacementsAreRowsThatASecondTapRemoves() throws {
        var panel = SettingsPanel(values: [:], keyboards: [], replacements: [("omw", "On my way!"), ("brb", "Be right back")])
        let row = try #require(panel.row(named: "replacement:omw"))
        #expect(row.title == "omw" && row.detail == "On my way!" && row.control == .action)
        #expect(panel.shownValue(of: row) == "")
        panel.confirming = row.name
        #expect(panel.shownValue(of: row) == "Tap again")
        #expect(panel.row(named: "add-replacement") != nil)
        #expect(panel.layers.contains("replacements"))
    }
}
