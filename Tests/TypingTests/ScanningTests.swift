import KeyboardModel
import TestSupport
import Testing
import Typing

/// Switch scanning: rows, then groups of a row's keys, then keys, highlighted in turn; a switch picks.
@Suite struct ScanningTests {
    static func scanning(_ mode: ScanSettings.Mode, idleCycles: Int = 3) throws -> Harness {
        var k = try Harness()
        k.engine.scanning = ScanSettings(mode: mode, interval: 1, idleCycles: idleCycles)
        _ = k.engine.startScanning(at: k.now)
        return k
    }

    /// The labels of the highlighted keys.
    static func highlighted(_ k: Harness) -> [String] {
        k.engine.state.scanned.sorted().map { k.engine.geometry.keys[$0].name }
    }

    @Test func autoScanningTypesAKeyInThreePicks() throws {
        var k = try Self.scanning(.auto)
        #expect(Self.highlighted(k) == ["q", "w", "e", "r", "t", "y", "u", "i", "o", "p"])
        k.wait(1)
        #expect(Self.highlighted(k).first == "a")
        k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions
        // A row of nine keys: two groups.
        #expect(Self.highlighted(k) == ["a", "s", "d", "f"])
        k.wait(1)
        #expect(Self.highlighted(k) == ["g", "h", "j", "k", "l"])
        k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions
        #expect(Self.highlighted(k) == ["g"])
        k.wait(1)
        #expect(Self.highlighted(k) == ["h"])
        k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions
        #expect(k.typed() == [.text("h")])
        // Back to the top.
        #expect(Self.highlighted(k).first == "q")
    }

    @Test func aRoundWithNoPickGoesBackUpAndIdleRoundsPause() throws {
        var k = try Self.scanning(.auto, idleCycles: 2)
        let rows = k.engine.geometry.keys.map(\.rect.y).reduce(into: Set<Int>()) { $0.insert($1) }.count
        k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions   // the first row: two groups
        k.wait(2)
        #expect(Self.highlighted(k).first == "q" && Self.highlighted(k).count == 10)
        k.wait(Double(rows * 2) - 0.5)
        #expect(!Self.highlighted(k).isEmpty)
        k.wait(1)
        #expect(Self.highlighted(k).isEmpty && k.engine.nextDeadline == nil)
        // The switch wakes it, at the top.
        k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions
        #expect(Self.highlighted(k).first == "q" && k.typed().isEmpty)
    }

    @Test func stepScanningMovesOnlyWithItsSwitch() throws {
        var k = try Self.scanning(.step)
        #expect(k.engine.nextDeadline == nil)
        k.wait(5)
        #expect(Self.highlighted(k).first == "q")
        _ = k.engine.scanSwitch(pick: false, at: k.now)
        _ = k.engine.scanSwitch(pick: false, at: k.now)
        #expect(Self.highlighted(k).first == "z" || Self.highlighted(k).contains("z"))
        k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions
        let row = Self.highlighted(k)
        #expect(!row.isEmpty && row.count <= 5)
        // Stepping past the row's last item goes back to the rows.
        for _ in 0..<12 where k.engine.state.scanned.count <= 5 { _ = k.engine.scanSwitch(pick: false, at: k.now) }
        #expect(Self.highlighted(k).first == "q")
        #expect(k.typed().isEmpty)
    }

    /// Walks auto scanning to a key: waits until it is in the highlight, and picks, at each level.
    static func reach(_ k: inout Harness, _ label: String) {
        for _ in 0..<60 {
            let highlighted = highlighted(k)
            if highlighted == [label] { return }
            if highlighted.contains(label) {
                k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions
            } else {
                k.wait(1)
            }
        }
        Issue.record("\(label) was never highlighted")
    }

    /// Holding the pick switch on a key with accents opens them, and they are scanned and picked; a short
    /// press types the key, on release.
    @Test func holdingTheSwitchOpensAKeysAccents() throws {
        var k = try Self.scanning(.auto)
        Self.reach(&k, "e")
        k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions
        k.now += 0.1
        k.actions += k.engine.scanSwitchReleased(at: k.now).actions
        #expect(k.typed() == [.text("e")])
        Self.reach(&k, "e")
        k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions
        k.wait(0.5)
        guard case .alternates(_, let options, let selected) = k.engine.state.popups.last else {
            Issue.record("no accents open: \(k.engine.state.popups)")
            return
        }
        #expect(selected == 0 && k.engine.state.scanned.isEmpty)
        // The release after the popup opened types nothing; the highlight walks the accents.
        k.actions += k.engine.scanSwitchReleased(at: k.now).actions
        k.wait(1)
        k.wait(1)
        if case .alternates(_, _, let now) = k.engine.state.popups.last { #expect(now == 2) }
        k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions
        #expect(k.typed() == [.text(options[2])])
        #expect(!k.engine.state.popups.contains { if case .alternates = $0 { true } else { false } })
        #expect(Self.highlighted(k).first == "q")
    }

    @Test func holdingTheSwitchOnTheGlobeKeyOpensTheKeyboardList() throws {
        var k = try Harness(["default", "email"])
        k.engine.scanning = ScanSettings(mode: .step)
        _ = k.engine.startScanning(at: k.now)
        // Step scanning: move to the Globe key.
        for _ in 0..<40 where Self.highlighted(k) != ["globe"] {
            if Self.highlighted(k).contains("globe") {
                _ = k.engine.scanSwitch(pick: true, at: k.now)
            } else {
                _ = k.engine.scanSwitch(pick: false, at: k.now)
            }
        }
        #expect(Self.highlighted(k) == ["globe"])
        _ = k.engine.scanSwitch(pick: true, at: k.now)
        k.wait(0.5)
        #expect(k.engine.state.popups.contains { if case .keyboards = $0 { true } else { false } })
        _ = k.engine.scanSwitchReleased(at: k.now)
        _ = k.engine.scanSwitch(pick: false, at: k.now)
        k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions
        #expect(k.typed().contains(.selectKeyboard(1)))
    }

    @Test func stoppingClearsTheHighlightAndTheTimer() throws {
        var k = try Self.scanning(.auto)
        let update = k.engine.stopScanning()
        #expect(!update.changedKeys.isEmpty)
        #expect(k.engine.state.scanned.isEmpty && k.engine.nextDeadline == nil)
    }

    /// On the emoji keyboard, a tone picked by scanning is typed and kept as the emoji's choice, as a
    /// finger's is.
    @Test func aToneScannedIsKeptAsTheEmojisChoice() throws {
        var k = try Harness(["default"])
        k.engine.addEmoji(EmojiBoard(catalog: try fixtureCatalog()))
        k.engine.select(keyboard: k.engine.enabled.firstIndex(of: "emoji")!)
        k.engine.scanning = ScanSettings(mode: .auto, interval: 1, idleCycles: 3)
        _ = k.engine.startScanning(at: k.now)
        Self.reach(&k, "👋")
        k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions
        k.wait(0.5)
        guard case .alternates(_, let options, _) = k.engine.state.popups.last else {
            Issue.record("no tones open: \(k.engine.state.popups)")
            return
        }
        k.actions += k.engine.scanSwitchReleased(at: k.now).actions
        k.wait(1)
        k.wait(1)
        k.actions += k.engine.scanSwitch(pick: true, at: k.now).actions
        #expect(k.typed() == [.text(options[2])])
        #expect(k.engine.emoji?.recent == [options[2]] && k.engine.emoji?.tones["👋"] == options[2])
    }
}
