public import KeyboardModel

/// Switch scanning, for people who type with one or two switches: the keys are highlighted a row at a
/// time, then a group of a row's keys, then one key, and a switch picks what is highlighted.
///
/// Auto (one switch): the highlight moves on by itself every `interval`; the switch picks. Step (two
/// switches): one switch moves the highlight, the other picks. A round through a row's groups or keys with no
/// pick goes back to the rows; after `idleCycles` rounds of the rows with no pick, auto scanning pauses (no
/// highlight, no timer) until the switch is pressed again. Holding the pick switch on a key with a long
/// press (accents, the Globe key's list) opens it, and its cells are scanned in turn.
public struct ScanSettings: Equatable, Sendable {
    public enum Mode: String, Sendable { case auto, step }
    public var mode: Mode
    public var interval: Double
    public var idleCycles: Int
    /// The most keys highlighted together; a longer row is split into groups of about this many.
    public var groupSize: Int

    public init(mode: Mode, interval: Double = 1, idleCycles: Int = 3, groupSize: Int = 5) {
        self.mode = mode
        self.interval = interval
        self.idleCycles = idleCycles
        self.groupSize = groupSize
    }
}

/// Where scanning is: the level and the item highlighted in it.
struct ScanPosition: Sendable {
    /// The row picked, and the group picked in it (nil: not yet).
    var row: Int?
    var group: Int?
    /// The cells of an open popup (accents, the keyboard list) are scanned, not keys.
    var inPopup = false
    /// A pick switch held down on a key with a long press: which key, since when; held long enough, it
    /// opens the key's popup instead of typing it.
    var hold: (key: Int, since: Double)?
    /// The item highlighted at this level.
    var index = 0
    /// Rounds of this level with no pick.
    var rounds = 0
    /// Auto: when the highlight next moves; nil when paused (or in step mode).
    var nextStep: Double?
    var paused = false
}

extension TypingEngine {
    /// The touch id of presses made by scanning and dwell.
    public static let pressTouch = -3

    /// The keys of each row, left to right, rows top to bottom.
    var scanRows: [[Int]] {
        let keys = geometry.keys.indices.sorted {
            (geometry.keys[$0].rect.y, geometry.keys[$0].rect.x) < (geometry.keys[$1].rect.y, geometry.keys[$1].rect.x)
        }
        var rows: [[Int]] = []
        var lastY: Int?
        for key in keys {
            if geometry.keys[key].rect.y != lastY { rows.append([]) }
            rows[rows.count - 1].append(key)
            lastY = geometry.keys[key].rect.y
        }
        return rows
    }

    /// A row split into groups of at most `groupSize` keys, as even as they can be.
    func scanGroups(_ row: [Int], size: Int) -> [[Int]] {
        guard row.count > size else { return [row] }
        let count = (row.count + size - 1) / size
        return (0..<count).map { group in
            Array(row[(group * row.count / count)..<((group + 1) * row.count / count)])
        }
    }

    /// The items of the current level, each a set of keys (in a popup, its cells, as their indices).
    var scanItems: [[Int]] {
        guard let settings = scanning, let position = scanPosition else { return [] }
        if position.inPopup { return scanPopup.map { popupOptions(state.popups[$0]).indices.map { [$0] } } ?? [] }
        let rows = scanRows
        guard let row = position.row, rows.indices.contains(row) else { return rows }
        let groups = scanGroups(rows[row], size: settings.groupSize)
        if let group = position.group, groups.indices.contains(group) { return groups[group].map { [$0] } }
        return groups.count > 1 ? groups : rows[row].map { [$0] }
    }

    /// Starts scanning from the top (when the keyboard shows, or the switch wakes a paused scan).
    public mutating func startScanning(at time: Double) -> Update {
        var update = Update()
        guard let settings = scanning else { return update }
        scanPosition = ScanPosition(nextStep: settings.mode == .auto ? time + settings.interval : nil)
        highlight(&update)
        return update
    }

    /// Stops scanning (the keyboard hid): no highlight, no timer.
    public mutating func stopScanning() -> Update {
        var update = Update()
        update.changedKeys = state.scanned
        state.scanned = []
        scanPosition = nil
        return update
    }

    /// A switch was pressed: `pick` (the only switch of auto scanning, the second of step scanning) or the
    /// step scanning's switch that moves on.
    public mutating func scanSwitch(pick: Bool, at time: Double) -> Update {
        var update = Update()
        guard let settings = scanning else { return update }
        guard var position = scanPosition, !position.paused else { return startScanning(at: time) }
        if !pick {
            advanceScan(&update)
            return update
        }
        let items = scanItems
        guard items.indices.contains(position.index) else { return startScanning(at: time) }
        if position.inPopup {
            pickPopupCell(position.index, at: time, &update)
            return restartScanning(at: time, update)
        }
        let picked = items[position.index]
        // A row of one key (a row of the settings panel) is that key: picked at once, not entered.
        if picked.count == 1 && position.row == nil { position.row = position.index }
        if picked.count == 1 && position.row != nil && hasLongPress(picked[0]) && geometry.keys[picked[0]].function != .dismiss {
            // Typed when the switch comes up; held long enough, the key's popup opens instead.
            position.hold = (picked[0], time)
            position.nextStep = nil
            scanPosition = position
            return update
        }
        if picked.count == 1 && (position.row != nil) {
            // A key: pressed and let go, then back to the rows.
            pressKey(picked[0], at: time, &update)
            update.changedKeys.formUnion(state.scanned)
            let restart = startScanning(at: time)
            update.changedKeys.formUnion(restart.changedKeys)
            return update
        }
        if position.row == nil {
            position.row = position.index
        } else {
            position.group = position.index
        }
        position.index = 0
        position.rounds = 0
        if settings.mode == .auto { position.nextStep = time + settings.interval }
        scanPosition = position
        highlight(&update)
        return update
    }

    /// The pick switch came up: a key held for less than the long press is typed now.
    public mutating func scanSwitchReleased(at time: Double) -> Update {
        var update = Update()
        guard let hold = scanPosition?.hold else { return update }
        scanPosition?.hold = nil
        pressKey(hold.key, at: time, &update)
        return restartScanning(at: time, update)
    }

    private mutating func restartScanning(at time: Double, _ update: Update) -> Update {
        var update = update
        let restart = startScanning(at: time)
        update.changedKeys.formUnion(restart.changedKeys)
        return update
    }

    /// When auto scanning next moves the highlight (the loop's clock), or nil.
    public var scanNextStep: Double? { scanPosition?.nextStep }

    /// What scanning highlights, by name: keys left to right, or the popup cell.
    public var scanHighlight: [String] {
        if scanPosition?.inPopup == true, let open = scanPopup, let index = scanPosition?.index {
            let options = popupOptions(state.popups[open])
            return options.indices.contains(index) ? [options[index]] : []
        }
        return state.scanned.sorted().map { geometry.keys[$0].name }
    }

    /// The open popup scanning walks, by its index in the state's popups.
    var scanPopup: Int? { state.popups.firstIndex { !isPreview($0) } }

    func popupOptions(_ popup: Popup) -> [String] {
        switch popup {
        case .alternates(_, let options, _): options
        case .keyboards(_, let titles, _): titles
        case .preview: []
        }
    }

    /// Moves the popup's own selection to the cell scanning highlights.
    mutating func selectPopupCell(_ cell: Int, _ update: inout Update) {
        guard let index = scanPopup else { return }
        switch state.popups[index] {
        case .alternates(let key, let options, _): state.popups[index] = .alternates(key: key, options: options, selected: cell)
        case .keyboards(let key, let titles, _): state.popups[index] = .keyboards(key: key, titles: titles, selected: cell)
        case .preview: break
        }
        update.popupsChanged = true
    }

    /// Picks a popup's cell: an accent is typed, a keyboard chosen; the popup closes.
    private mutating func pickPopupCell(_ cell: Int, at time: Double, _ update: inout Update) {
        guard let index = scanPopup else { return }
        let popup = state.popups.remove(at: index)
        update.popupsChanged = true
        switch popup {
        case .alternates(_, let options, _): typeAlternate(options[cell], at: time, &update)
        case .keyboards(_, let titles, _): update.actions.append(keyboardListAction(cell, of: titles))
        case .preview: break
        }
    }

    /// Held long enough: the key's popup opens, and its cells are scanned from the first.
    mutating func openScannedPopup(at time: Double, _ update: inout Update) {
        guard let settings = scanning, let hold = scanPosition?.hold else { return }
        openLongPress(key: hold.key, &update)
        scanPosition = ScanPosition(inPopup: true, nextStep: settings.mode == .auto ? time + settings.interval : nil)
        selectPopupCell(0, &update)
        highlight(&update)
    }

    /// The highlight moves on: past the last item, a new round, or back to the rows.
    mutating func advanceScan(_ update: inout Update) {
        guard let settings = scanning, var position = scanPosition else { return }
        position.index += 1
        if position.index >= scanItems.count {
            position.index = 0
            position.rounds += 1
            if position.inPopup {
                // A round of the popup with no pick: it closes, back to the rows.
                if let open = scanPopup { state.popups.remove(at: open) }
                update.popupsChanged = true
                position = ScanPosition(nextStep: position.nextStep)
            } else if position.row != nil {
                // A round of a row with no pick: back to the rows.
                position = ScanPosition(nextStep: position.nextStep)
            } else if settings.mode == .auto && position.rounds >= settings.idleCycles {
                position.paused = true
                position.nextStep = nil
            }
        }
        scanPosition = position
        highlight(&update)
    }

    /// When the auto highlight next moves, or a held switch opens a popup.
    var scanDeadline: Double? {
        if let hold = scanPosition?.hold { return hold.since + timing.longPress }
        return scanPosition?.nextStep
    }

    /// The auto highlight's step, or the popup of a held switch, when due.
    mutating func scanTick(at now: Double, _ update: inout Update) {
        if let hold = scanPosition?.hold, hold.since + timing.longPress <= now {
            openScannedPopup(at: now, &update)
            return
        }
        guard let settings = scanning, let next = scanPosition?.nextStep, next <= now else { return }
        scanPosition?.nextStep = next + settings.interval
        advanceScan(&update)
    }

    private mutating func highlight(_ update: inout Update) {
        if let position = scanPosition, position.inPopup {
            // The popup's own selection shows the cell; no key is highlighted.
            selectPopupCell(position.index, &update)
            update.changedKeys.formUnion(state.scanned)
            state.scanned = []
            return
        }
        let items = scanItems
        let keys: KeySet = scanPosition.map { $0.paused || !items.indices.contains($0.index) ? [] : KeySet(items[$0.index]) } ?? []
        update.changedKeys.formUnion(state.scanned.symmetricDifference(keys))
        state.scanned = keys
    }

    /// A key pressed and let go where it is, as a tap would (slow keys count the scan as the hold).
    mutating func pressKey(_ key: Int, at time: Double, _ update: inout Update) {
        let rect = geometry.keys[key].rect
        let x = Double(rect.x) + Double(rect.width) / 2, y = Double(rect.y) + Double(rect.height) / 2
        began(InputEvent(touch: Self.pressTouch, phase: .began, x: x, y: y, time: time), &update)
        accept(Self.pressTouch, at: time, &update)
        ended(InputEvent(touch: Self.pressTouch, phase: .ended, x: x, y: y, time: time), &update)
    }
}
